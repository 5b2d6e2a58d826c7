// The example application the end-to-end tests and the demo monitor (e2e/src/images): net/http only, built static.
module promop.local/tools/example-app

go 1.26.0
