// The reader check: reads YAML with the libraries and versions Prometheus 3.16 reads its files with
// (go.yaml.in/yaml/v2 for prometheus.yaml, go.yaml.in/yaml/v3 for rule files) and compiles regexes with Go's
// regexp as Prometheus anchors them, so tests compare what promop meant with what Prometheus reads.
module promop.local/tools/go-check

go 1.26.0

require (
	go.yaml.in/yaml/v2 v2.4.4
	go.yaml.in/yaml/v3 v3.0.5
)
