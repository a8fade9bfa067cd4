# Sitecast's two commands (see README):
#   make run    build everything and start Sitecast on http://localhost:8080
#   make test   run every test of the workspace and the web app
.PHONY: run test web server deps test-deps e2e clean

run:
	./scripts/run.sh

test:
	./scripts/test.sh

# Installs the web app's packages when package-lock.json changed, then builds it.
web:
	./scripts/web-deps.sh
	cd web && npm run build

# Builds into the machine-level target directory the other targets use (scripts/cache.sh).
server:
	./scripts/build-deps.sh
	. scripts/cache.sh && cargo build -p sitecast-server

test-deps:
	./scripts/test-deps.sh

e2e:
	./scripts/e2e.sh

clean:
	. scripts/cache.sh && cargo clean
	rm -rf web/node_modules web/dist web/e2e-output web/test-results
