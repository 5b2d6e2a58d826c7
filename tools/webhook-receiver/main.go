// Command webhook-receiver plays the teams' notification endpoints in promop's end-to-end tests.
// It answers 200 to every POST, on any path, and keeps what it received in memory; GET /received
// lists it as JSON ({"path", "receivedAt", "body"} in arrival order, the body as sent), and
// GET /healthz answers ok. It listens on :8080 unless -listen-address says otherwise.
//
// It dials nothing: it only answers.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// maxBody bounds one request's body; maxKept bounds how many requests are kept (the oldest go first).
const (
	maxBody = 1 << 20
	maxKept = 1000
)

type received struct {
	Path       string          `json:"path"`
	ReceivedAt time.Time       `json:"receivedAt"`
	Body       json.RawMessage `json:"body"`
}

type store struct {
	mu    sync.Mutex
	items []received
}

func (s *store) record(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !json.Valid(body) {
		// Kept as a JSON string, so /received stays valid JSON whatever was sent.
		body, _ = json.Marshal(string(body))
	}
	s.mu.Lock()
	s.items = append(s.items, received{Path: r.URL.Path, ReceivedAt: time.Now().UTC(), Body: body})
	if len(s.items) > maxKept {
		s.items = s.items[len(s.items)-maxKept:]
	}
	s.mu.Unlock()
	log.Printf("received %d bytes on %s", len(body), r.URL.Path)
	w.WriteHeader(http.StatusOK)
}

func (s *store) list(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	items := append([]received{}, s.items...)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(items)
}

func main() {
	address := flag.String("listen-address", ":8080", "host:port to listen on")
	flag.Parse()

	kept := &store{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /", kept.record)
	mux.HandleFunc("GET /received", kept.list)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	server := &http.Server{Addr: *address, Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	// SIGTERM (pod deletion): finish the requests in flight and exit 0.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	log.Printf("webhook-receiver listening on %s", *address)
	if err := server.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
