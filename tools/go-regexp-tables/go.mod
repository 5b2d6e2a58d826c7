// Generates packages/prometheus-lang/src/go-regexp/unicode-tables.ts from Go's unicode package, so
// promop's regexp parser counts a Unicode class's ranges (Go's size limits) and case folds as Go does.
module promop.local/tools/go-regexp-tables

go 1.26.0
