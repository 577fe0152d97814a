import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (style.md): contracts depend on nothing; shared libs only on contracts
 * (and each other); area libs on contracts and shared; apps on libs; no app imports another.
 */
export default [
  { ignores: ['**/dist', '**/node_modules', '**/target', 'var/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:shared', onlyDependOnLibsWithTags: ['type:contracts', 'type:shared'] },
            { sourceTag: 'type:area', onlyDependOnLibsWithTags: ['type:contracts', 'type:shared', 'type:area'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:shared', 'type:area'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'bench/**/*.ts', '**/*.cli.ts'],
    rules: { 'no-console': 'off' },
  },
];
