# The webhook receiver (tools/webhook-receiver) for kind: the same static binary the real-node images carry.
FROM golang:1.26 AS build
WORKDIR /src
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o /webhook-receiver .

FROM scratch
COPY --from=build /webhook-receiver /webhook-receiver
USER 65534
EXPOSE 8080
ENTRYPOINT ["/webhook-receiver"]
