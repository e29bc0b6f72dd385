import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** The repository root. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
export const chart = `${root}helm/noted`;
export const valuesFile = (name: string) => `${root}deploy/k8s/values/${name}.yaml`;

/** Kubernetes objects are deep and varied: tests read them as plain data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  [field: string]: Json;
}

const helm = () => {
  const path = process.env.HELM;
  if (!path) throw new Error('HELM is not set: run deploy/k8s/check.sh, which installs helm');
  return path;
};

/** `helm template` of the chart with the given arguments: its exit status, output and errors. */
export const helmTemplate = (args: string[]) => {
  const run = spawnSync(helm(), ['template', 'noted', chart, '--namespace', 'noted', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};

/** The manifests `helm template` renders (hooks included); throws with helm's message if it fails. */
export const render = (args: string[] = []): Manifest[] => {
  const run = helmTemplate(args);
  if (run.status !== 0) throw new Error(`helm template ${args.join(' ')} failed:\n${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
};

export const find = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) {
    const names = manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ');
    throw new Error(`no ${kind}/${name} among ${names}`);
  }
  return found;
};

export const ofKind = (manifests: Manifest[], kind: string) =>
  manifests.filter((m) => m.kind === kind);
