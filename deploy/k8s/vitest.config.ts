import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The chart's and skaffold.yaml's checks need helm (HELM): deploy/k8s/check.sh runs them.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['deploy/k8s/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
