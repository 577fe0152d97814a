// The `lookup` commands: which built entry point each runs, how, and its --help text.
// Entry points are the same files the containers and k8s Jobs run (dist/apps/*).

/** @typedef {{ main: string, summary: string, help: string, heapMb?: number, env?: Record<string, string> }} Command */

/** @type {Record<string, Command>} */
const COMMANDS = {
  start: {
    main: 'dist/apps/standalone/src/main.js',
    summary: 'run the API in one process (SQLite under DATA_DIR, the bundled sample on first start)',
    help: `Usage: lookup start
Runs the standalone profile: the whole API in one process on http://127.0.0.1:$PORT (3000),
SQLite stores under $DATA_DIR (var/), the bundled sample imported into an empty store.
The demo page is at /, the OpenAPI docs at /docs. Every setting is an environment variable
(README, "Configuration"), e.g.  PORT=8080 SEED_API_KEY=dev-key lookup start`,
  },
  keys: {
    main: 'dist/apps/gateway/src/keys.cli.js',
    summary: 'create, list, limit, restrict and revoke API keys',
    help: `Usage: lookup keys <command>   (options as --opt value or --opt=value; an unknown command or option is refused, exit 2)
  create --name NAME [--search-limit N] [--query-limit N] [--rate PER_SECOND] [--burst N]
         [--origin URL]... [--ip ADDR|CIDR]... [--project NAME]
  list
  revoke ID   (an already revoked key: says so, exit 0)
  limits ID [--search-limit N] [--query-limit N] [--rate PER_SECOND|default] [--burst N|default]
  restrict ID [--origin URL|none]... [--ip ADDR|CIDR|none]...
             changes only the list it names (none: empties it); no flags: remove all restrictions
  usage ID [--month YYYY-MM]   (without --month: this month)
  --rate     requests per second (0: no limit), --burst N at once; default: the server's
             RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST
  --origin   scheme://host[:port] as a browser sends it (https://shop.example), or *.example.com;
             binds browsers only (any program can send an Origin): for servers use --ip
  --ip       an IPv4/IPv6 address or CIDR block (203.0.113.0/24, 2001:db8::/32); a block is
             stored by its first address (10.0.0.1/24 as 10.0.0.0/24, with a note)
Run it with the server's store: the same DATA_DIR or SQLITE_PATH (standalone, default
var/lookup.sqlite) or DATABASE_URL (PROFILE=distributed). Anywhere else it silently creates and
uses a new, empty store the server never reads.
The key itself is printed once, at create; only its hash is stored.`,
  },
  projects: {
    main: 'dist/apps/intl/src/projects.cli.js',
    summary: 'translation projects and their members (intl)',
    help: `Usage: lookup projects <command>
  create <project>
  add-member <project> <email> <translator|administrator>
  remove-member <project> <email>
  list
The intl endpoints need a key bound to a project: lookup keys create --name NAME --project <project>`,
  },
  import: {
    main: 'dist/apps/indexer/src/import.cli.js',
    // The same heap cap as the indexer in k8s: V8 otherwise lets garbage grow to ~900 MB.
    heapMb: 320,
    summary: 'import an official dataset (file, folder or URL) as a new version',
    help: `Usage: lookup import <kind> <country> <file|folder|url> [--format f] [--checksum sha256:<hex>] [--dry-run] [--force] [--wait [--wait-timeout s]]
  kinds: addresses, address-changes, postal-codes (GeoNames), business; countries: CZ SK PL AT CH LI
  --dry-run  parse and validate the whole file, print counts and errors, write nothing
  --force    accept a version with far fewer documents than the live one
  --wait     (distributed) wait until the indexer has made it live (exit 0) or given up on it (exit 1)
  lookup import catalogue <country> --psc-list|--register|--geonames <file> [--dry-run] [--force]
  lookup import status    what is live: each country's layers, versions and documents
Standalone: imports in-process. PROFILE=distributed: publishes a datasets.updated event for the indexer.
Formats per country: libs/indexer/src/cli/dataset-formats.ts; README, "Importing official data".`,
  },
  migrate: {
    main: 'dist/apps/gateway/src/migrate.js',
    summary: 'apply the PostgreSQL migrations (keys, quotas, intl) of the distributed profile',
    help: `Usage: lookup migrate
Creates DATABASE_SCHEMA if it does not exist and applies every pending migration (keys and
quotas, intl) to DATABASE_URL, once. The k8s Job lookup-migrate runs the same.`,
  },
  stack: {
    main: 'dist/tools/stack/run-stack.js',
    summary: 'run the distributed profile: migrations, then one process per app',
    help: `Usage: lookup stack
Runs the migrations, then every service app (places, business, intl, utils, indexer), each
its own process, waits until each is ready, then the gateway on $STACK_PORT (3000).
Needs NATS, PostgreSQL and OpenSearch (npm run servers:up). STACK_SERVICES=places,intl picks
a subset. Ctrl-C stops everything it started; if one app fails, all are stopped and that
app's last log lines are printed.`,
  },
  build: {
    main: '',
    summary: 'compile the TypeScript sources into dist/ (other commands do this when sources changed)',
    help: `Usage: lookup build [--force]
Compiles into dist/ when a source under apps/ libs/ tools/ bench/ changed since the last build
(--force: always). Every other command builds first when needed.`,
  },
};

function overview() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'Usage: lookup <command> [options]   (in this checkout: npx lookup ...; or npm run lookup -- ...)',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'lookup <command> --help shows a command\'s options.',
  ].join('\n');
}

module.exports = { COMMANDS, overview };
