// One Jest run for the whole workspace: unit (*.spec.ts), server-backed (*.int-spec.ts)
// and HTTP (*.e2e-spec.ts) tests. Path aliases come from tsconfig.base.json so there is
// a single source of truth for them.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/]/g, '\\/')}$`] = `<rootDir>/${target}`;
}

const swcrc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcrc],
    // ESM-only dependencies of @fastify/static (Swagger UI); Node loads them natively, Jest 30 on Node 20 cannot.
    'node_modules/content-disposition/.+\\.js$': ['@swc/jest', swcrc],
    // pbf@4 (OSM PBF decoding) is ESM-only; Node >= 20.19 requires it natively, Jest's loader cannot.
    'node_modules/pbf/.+\\.js$': ['@swc/jest', swcrc],
  },
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|pbf)/)'],
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/libs/shared/testing/src/jest.global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
