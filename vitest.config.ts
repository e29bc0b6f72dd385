import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const conditions = ['@noted/source'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    globalSetup: ['test/tmpdir-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'libs/*/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'frontends/*/scripts/**/*.test.ts',
          ],
          exclude: [
            'libs/ui/**',
            '**/node_modules/**',
            '**/*.keycloak.test.ts',
            '**/*.conformance.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          setupFiles: ['test/web-setup.ts'],
          include: ['frontends/*/src/**/*.test.{ts,tsx}', 'libs/ui/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          environment: 'node',
          include: [
            'libs/*/src/**/*.contract.test.ts',
            'libs/*/src/**/*.conformance.test.ts',
            'services/*/src/**/*.integration.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Against a real Keycloak (deploy/local/keycloak.sh): npm run test:keycloak.
          name: 'keycloak',
          environment: 'node',
          include: ['services/*/src/**/*.keycloak.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
