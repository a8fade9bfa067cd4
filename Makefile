# Sitecast's two commands (see README):
#   make run    build everything and start Sitecast on http://localhost:8080
#   make test   run every test of the workspace and the web app
.PHONY: run test web server deps test-deps e2e clean

run: web
	./scripts/build-deps.sh
	cargo build --release -p sitecast-server
	./target/release/sitecast serve

test:
	./scripts/test.sh

# Installs the web app's packages when package-lock.json changed, then builds it.
web:
	./scripts/web-deps.sh
	cd web && npm run build

server:
	./scripts/build-deps.sh
	cargo build -p sitecast-server

test-deps:
	./scripts/test-deps.sh

e2e:
	./scripts/e2e.sh

clean:
	cargo clean
	rm -rf web/node_modules web/dist web/e2e-output web/test-results
