# The example app (tools/example-app) for kind: the same static binary the real-node images carry.
FROM golang:1.26 AS build
WORKDIR /src
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o /example-app .

FROM scratch
COPY --from=build /example-app /example-app
USER 65534
EXPOSE 8080
ENTRYPOINT ["/example-app"]
