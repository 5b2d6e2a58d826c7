// A webhook receiver for the end-to-end tests' Alertmanager (e2e/src/images): no dependencies, built static.
module promop.local/tools/webhook-receiver

go 1.26.0
