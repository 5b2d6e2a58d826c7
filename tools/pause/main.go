// Command pause is PID 1 of a pod sandbox: it holds the pod's namespaces open until the runtime
// stops the sandbox with SIGTERM or SIGINT, and reaps the zombies that PID 1 inherits when a
// container shares the pod's PID namespace (shareProcessNamespace: true).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for sig := range signals {
		if sig != syscall.SIGCHLD {
			os.Exit(0)
		}
		reapChildren()
	}
}

// reapChildren waits for every child that has exited. Signals coalesce, so one SIGCHLD can stand
// for several exits: keep waiting without blocking until no exited child remains.
func reapChildren() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}
