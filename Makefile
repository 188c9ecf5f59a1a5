# My Day — the two commands of the README, and a few more.
CONFIG ?= debug
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: run test build bench generate format

## Installs what is missing, builds, and serves on http://127.0.0.1:8080 with data in ./data.
run:
	scripts/install-dependencies
	swift build -c $(CONFIG) --product myday-server
	.build/$(CONFIG)/myday-server serve

## Installs what is missing and runs every check and test (SQLite and PostgreSQL).
test:
	scripts/test

build:
	swift build -c $(CONFIG)

## Measures the server under load; results go to docs/benchmarks.md.
bench:
	scripts/install-dependencies
	bench/run
	bench/endpoints
	bench/pipeline
	bench/speech
	bench/export
	bench/import
	bench/kit
	bench/web
	bench/scaleout

## Regenerates the code made from Sources/MyDayAPI/openapi.yaml (types, client, server stubs) after it changed.
generate:
	scripts/generate-openapi

format:
	swift format format --in-place --recursive Package.swift Apps/iOS Sources Tests bench/MyDayKitBench
