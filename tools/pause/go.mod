// The pod sandbox's PID 1 for the test node's pause image (e2e/src/images): no dependencies, built static.
module promop.local/tools/pause

go 1.26.0
