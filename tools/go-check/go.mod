// The reader check: reads YAML with the libraries and versions Prometheus 3.16 reads its files with
// (go.yaml.in/yaml/v2 for prometheus.yaml, go.yaml.in/yaml/v3 for rule files) and compiles regexes with Go's
// readers (relabel.NewRegexp, labels.NewFastRegexMatcher), so tests compare what promop meant with what Prometheus reads.
module promop.local/tools/go-check

go 1.26.7

require (
	github.com/prometheus/prometheus v0.316.0
	go.yaml.in/yaml/v2 v2.4.4
	go.yaml.in/yaml/v3 v3.0.5
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/grafana/regexp v0.0.0-20250905093917-f7b3be9d1853 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.1 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
