// Command example-app plays a "checkout" service for promop's examples and end-to-end tests. It
// serves Prometheus metrics on /metrics and a liveness endpoint on /healthz, on :8080 unless
// -listen-address (or $LISTEN_ADDRESS) says otherwise.
//
// The traffic is simulated: http_requests_total is computed from the time since start, so the
// counters grow steadily without a background goroutine and every scrape is consistent with the
// last. With the defaults (10 requests/s, 10% answered with 500) the 5xx ratio is 0.1, so the
// example alert `sum(rate(http_requests_total{code=~"5.."}[1m])) / sum(rate(http_requests_total[1m])) > 0.05`
// fires; -error-percent=0 makes a service that never alerts.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// version is reported by checkout_build_info.
const version = "1.0.0"

// traffic is the simulated load: how many requests per second, and which share of them fails.
type traffic struct {
	started           time.Time
	requestsPerSecond float64
	errorPercent      int
}

// counts returns the requests answered so far with 200 and with 500. The failures are the integer
// share of the total, so each new request adds to exactly one of the two: both counters only grow.
func (t traffic) counts(now time.Time) (ok, failed int64) {
	total := int64(math.Floor(now.Sub(t.started).Seconds() * t.requestsPerSecond))
	failed = total * int64(t.errorPercent) / 100
	return total - failed, failed
}

// writeMetrics writes the metrics in the Prometheus text exposition format.
func (t traffic) writeMetrics(w http.ResponseWriter, _ *http.Request) {
	ok, failed := t.counts(time.Now())
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	fmt.Fprintf(w, "# HELP http_requests_total Checkout requests answered, by status code.\n")
	fmt.Fprintf(w, "# TYPE http_requests_total counter\n")
	fmt.Fprintf(w, "http_requests_total{code=\"200\",method=\"POST\",path=\"/checkout\"} %d\n", ok)
	fmt.Fprintf(w, "http_requests_total{code=\"500\",method=\"POST\",path=\"/checkout\"} %d\n", failed)
	fmt.Fprintf(w, "# HELP checkout_build_info The running version of the checkout service.\n")
	fmt.Fprintf(w, "# TYPE checkout_build_info gauge\n")
	fmt.Fprintf(w, "checkout_build_info{version=%q} 1\n", version)
}

func main() {
	address := flag.String("listen-address", envOr("LISTEN_ADDRESS", ":8080"), "host:port to listen on (environment: LISTEN_ADDRESS)")
	rate := flag.Float64("requests-per-second", 10, "simulated checkout requests per second")
	errorPercent := flag.Int("error-percent", 10, "share of the simulated requests answered with 500, 0 to 100")
	flag.Parse()
	if *errorPercent < 0 || *errorPercent > 100 || *rate < 0 {
		log.Fatalf("-error-percent must be within 0..100 and -requests-per-second not negative")
	}

	load := traffic{started: time.Now(), requestsPerSecond: *rate, errorPercent: *errorPercent}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", load.writeMetrics)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	server := &http.Server{Addr: *address, Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	// On SIGTERM (pod deletion) finish the scrapes in flight and exit 0, rather than dying with
	// Go's default exit status 2, which the kubelet would report as an error.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()

	log.Printf("example-app %s listening on %s (%.1f requests/s, %d%% errors)", version, *address, *rate, *errorPercent)
	if err := server.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
