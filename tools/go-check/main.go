// go-check reads framed records on stdin and answers one JSON line per record on stdout.
//
//	go-check yaml-v2   each record is a YAML document; the answer is {"value": <canonical JSON>} or {"error": "..."}
//	go-check yaml-v3   the same with yaml.v3 (what Prometheus reads rule files with)
//	go-check regex          each record is a regex, parsed alone by Go's regexp/syntax (Perl|DotNL), then compiled
//	                        anchored as Prometheus anchors it; the answer is {"ok": true, "matchesEmpty": bool} or
//	                        {"error": "...", "code": "..."} with the first error's code
//	go-check regex-relabel  the same, read exactly as Prometheus reads a relabeling (relabel.NewRegexp)
//	go-check regex-matcher  the same, read exactly as Prometheus reads a PromQL =~ matcher (labels.NewFastRegexMatcher)
//
// A record is "<byte length>\n<bytes>": any byte may appear in a record, so a writer bug cannot shift the framing.
// Canonical JSON: mappings become objects whose keys are the decoded key when it is a string and
// "!<type>:<value>" otherwise (so a key Go reads as a number never equals the string promop meant); integers and
// floats become JSON numbers, except NaN and infinities, which become {"!float": ".nan"} and so on.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/relabel"
	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-check yaml-v2|yaml-v3|regex|regex-relabel|regex-matcher < framed records")
		os.Exit(2)
	}
	read, known := readers[os.Args[1]]
	if !known {
		fmt.Fprintln(os.Stderr, "go-check: unknown mode", os.Args[1])
		os.Exit(2)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var records [][]byte
	for {
		record, err := readRecord(in)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "go-check:", err)
			os.Exit(2)
		}
		records = append(records, record)
	}
	// The records are independent, and a test waits for all of them: read them on every core, answer in order.
	answers := make([][]byte, len(records))
	next := make(chan int)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for i := range next {
				line, err := json.Marshal(read(records[i]))
				if err != nil {
					line, _ = json.Marshal(map[string]any{"error": "go-check cannot encode the answer: " + err.Error()})
				}
				answers[i] = line
			}
		}()
	}
	for i := range records {
		next <- i
	}
	close(next)
	workers.Wait()
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	for _, line := range answers {
		out.Write(line)
		out.WriteByte('\n')
	}
}

// readers answers one record in each mode.
var readers = map[string]func(record []byte) map[string]any{
	"yaml-v2":       readYAMLv2,
	"yaml-v3":       readYAMLv3,
	"regex":         func(record []byte) map[string]any { return goRegex(string(record)) },
	"regex-relabel": func(record []byte) map[string]any { return relabelRegex(string(record)) },
	"regex-matcher": func(record []byte) map[string]any { return matcherRegex(string(record)) },
}

func readRecord(in *bufio.Reader) ([]byte, error) {
	header, err := in.ReadString('\n')
	if err != nil {
		if err == io.EOF && header == "" {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading a record's length: %w", err)
	}
	length, err := strconv.Atoi(strings.TrimSuffix(header, "\n"))
	if err != nil || length < 0 {
		return nil, fmt.Errorf("bad record length %q", header)
	}
	record := make([]byte, length)
	if _, err := io.ReadFull(in, record); err != nil {
		return nil, fmt.Errorf("reading a record of %d bytes: %w", length, err)
	}
	return record, nil
}

func readYAMLv2(document []byte) map[string]any {
	var value any
	if err := yamlv2.Unmarshal(document, &value); err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"value": canonical(value)}
}

func readYAMLv3(document []byte) map[string]any {
	var value any
	if err := yamlv3.Unmarshal(document, &value); err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"value": canonical(value)}
}

func canonical(value any) any {
	switch v := value.(type) {
	case map[any]any:
		object := make(map[string]any, len(v))
		for key, item := range v {
			object[keyText(key)] = canonical(item)
		}
		return object
	case map[string]any:
		object := make(map[string]any, len(v))
		for key, item := range v {
			object[key] = canonical(item)
		}
		return object
	case []any:
		items := make([]any, len(v))
		for i, item := range v {
			items[i] = canonical(item)
		}
		return items
	case float64:
		if math.IsNaN(v) {
			return map[string]any{"!float": ".nan"}
		}
		if math.IsInf(v, 0) {
			return map[string]any{"!float": strconv.FormatFloat(v, 'g', -1, 64)}
		}
		return v
	case string, bool, nil, int, int64, uint64:
		return v
	default:
		return map[string]any{"!" + fmt.Sprintf("%T", v): fmt.Sprint(v)}
	}
}

func keyText(key any) string {
	if text, ok := key.(string); ok {
		return text
	}
	return fmt.Sprintf("!%T:%v", key, key)
}

// goRegex parses the pattern alone, then compiles it anchored: Go's verdict with the code of the user's own
// pattern first (what promop's parser reports).
func goRegex(pattern string) map[string]any {
	// Both readings are needed (a pattern can parse anchored and not alone: "a)(b"); a pattern of megabytes takes
	// Go seconds to read, so the two run side by side.
	var compiled *regexp.Regexp
	var compileErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		compiled, compileErr = regexp.Compile("^(?s:" + pattern + ")$")
	}()
	_, parseErr := syntax.Parse(pattern, syntax.Perl|syntax.DotNL)
	<-done
	if parseErr != nil {
		return regexError(parseErr)
	}
	if compileErr != nil {
		return regexError(compileErr)
	}
	return map[string]any{"ok": true, "matchesEmpty": compiled.MatchString("")}
}

// relabelRegex reads a pattern as Prometheus reads a relabeling's regex (fully anchored, "." matching newlines).
func relabelRegex(pattern string) map[string]any {
	regex, err := relabel.NewRegexp(pattern)
	if err != nil {
		return regexError(err)
	}
	return map[string]any{"ok": true, "matchesEmpty": regex.MatchString("")}
}

// matcherRegex reads a pattern as Prometheus reads a PromQL =~ matcher: its own copy of regexp/syntax first, then
// Go's regexp.
func matcherRegex(pattern string) map[string]any {
	matcher, err := labels.NewFastRegexMatcher(pattern)
	if err != nil {
		return regexError(err)
	}
	return map[string]any{"ok": true, "matchesEmpty": matcher.MatchString("")}
}

func regexError(err error) map[string]any {
	answer := map[string]any{"error": err.Error()}
	// Both copies of regexp/syntax (Go's, and grafana/regexp's in labels) return an *Error with a Code.
	var code string
	switch e := err.(type) {
	case *syntax.Error:
		code = string(e.Code)
	case interface{ Unwrap() error }:
		if inner, ok := e.Unwrap().(*syntax.Error); ok {
			code = string(inner.Code)
		}
	}
	if code == "" {
		code = codeOf(err.Error())
	}
	if code != "" {
		answer["code"] = code
	}
	return answer
}

// codeOf reads the error code out of "error parsing regexp: <code>: `<expr>`", the text both copies write.
func codeOf(message string) string {
	rest, found := strings.CutPrefix(message, "error parsing regexp: ")
	if !found {
		return ""
	}
	if i := strings.Index(rest, ": `"); i >= 0 {
		return rest[:i]
	}
	return strings.TrimSuffix(rest, ": ")
}
