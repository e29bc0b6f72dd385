import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { find, helmTemplate, ofKind, render, root } from './render.js';

// Skaffold itself cannot be installed here: these checks hold skaffold.yaml to the files it
// names and to what the chart's schema accepts.

interface Artifact {
  image: string;
  context?: string;
  docker?: { dockerfile: string; target?: string };
  sync?: { manual: { src: string; dest: string }[] };
}
interface Release {
  name: string;
  chartPath: string;
  namespace?: string;
  valuesFiles?: string[];
  setValues?: Record<string, string>;
  setValueTemplates?: Record<string, string>;
}
interface PortForward {
  resourceType: string;
  resourceName: string;
  port: number;
}
interface Pipeline {
  build?: { artifacts: Artifact[] };
  deploy?: { helm?: { releases: Release[] } };
  portForward?: PortForward[];
}
interface Config extends Pipeline {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  profiles: (Pipeline & { name: string; activation?: { command?: string }[] })[];
}

const config = parse(readFileSync(path.join(root, 'skaffold.yaml'), 'utf8')) as Config;
const profile = (name: string) => {
  const found = config.profiles.find((p) => p.name === name);
  if (!found) throw new Error(`skaffold.yaml has no profile ${name}`);
  return found;
};
/** The pipeline a profile runs: its sections replace the top-level ones. */
const pipeline = (name?: string): Required<Pipeline> => {
  const chosen: Pipeline = name ? profile(name) : {};
  return {
    build: chosen.build ?? config.build!,
    deploy: chosen.deploy ?? config.deploy!,
    portForward: chosen.portForward ?? config.portForward ?? [],
  };
};

const dockerfile = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');
const stages = new Map(
  [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => {
    const after = dockerfile.slice(m.index);
    const next = after.slice(1).search(/^FROM\s/m);
    const body = next === -1 ? after : after.slice(0, next + 1);
    const workdirs = [...body.matchAll(/^WORKDIR\s+(\S+)/gm)].map((w) => w[1]);
    return [m[1]!, { workdir: workdirs.at(-1) }] as const;
  }),
);
/** A stage's working directory, inherited from the stage it is built FROM. */
const workdirOf = (stage: string): string | undefined => {
  const own = stages.get(stage)?.workdir;
  if (own) return own;
  const from = dockerfile.match(new RegExp(`^FROM\\s+(\\S+)\\s+AS\\s+${stage}\\b`, 'im'))?.[1];
  return from && stages.has(from) ? workdirOf(from) : undefined;
};

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '<any-dirs>')
      .replace(/\*/g, '[^/]*')
      .replace(/<any-dirs>/g, '(?:.*/)?')}$`,
  );

/** What skaffold would fill in: the built image, and the environment the README asks for. */
const templateValues: Record<string, string> = {
  IMAGE_REPO_noted: 'registry.example.com/noted',
  IMAGE_TAG_noted: 'abc1234',
  NOTED_PUBLIC_URL: 'https://notes.example.com',
  KEYCLOAK_URL: 'https://id.example.com',
  NATS_URL: 'nats://nats.example.com:4222',
  S3_ENDPOINT: 'https://s3.example.com',
};
const helmArgs = (release: Release, values: Record<string, string>) => [
  ...(release.valuesFiles ?? []).flatMap((file) => ['--values', path.join(root, file)]),
  ...Object.entries(release.setValues ?? {}).flatMap(([key, value]) => [
    '--set-string',
    `${key}=${value}`,
  ]),
  ...Object.entries(release.setValueTemplates ?? {}).flatMap(([key, template]) => [
    '--set-string',
    `${key}=${template.replace(/\{\{\s*\.([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => values[name] ?? '')}`,
  ]),
];

describe('skaffold.yaml', () => {
  it('is a skaffold/v4beta14 Config with only the sections it is meant to have', () => {
    expect(config.apiVersion).toBe('skaffold/v4beta14');
    expect(config.kind).toBe('Config');
    expect(Object.keys(config).sort()).toEqual([
      'apiVersion',
      'build',
      'deploy',
      'kind',
      'metadata',
      'portForward',
      'profiles',
    ]);
    expect(config.profiles.map((p) => p.name)).toEqual(['dev', 'prod']);
    expect(profile('dev').activation).toEqual([{ command: 'dev' }]);
  });

  it.each([undefined, 'dev', 'prod'])(
    'builds the one image from a stage of deploy/Dockerfile (profile %s)',
    (name) => {
      const { build } = pipeline(name);
      expect(build.artifacts.map((a) => a.image)).toEqual(['noted']);
      const [artifact] = build.artifacts;
      expect(artifact!.context).toBe('.');
      expect(existsSync(path.join(root, artifact!.docker!.dockerfile))).toBe(true);
      expect([...stages.keys()]).toContain(artifact!.docker!.target);
    },
  );

  it("runs the production stage by default and syncs the dev stage's sources into its working directory", () => {
    expect(pipeline().build.artifacts[0]!.docker!.target).toBe('runtime');
    const [dev] = pipeline('dev').build.artifacts;
    expect(dev!.docker!.target).toBe('dev');
    expect(dockerfile).toMatch(/FROM build AS dev[\s\S]*tsx", "watch"/);
    const rules = dev!.sync!.manual;
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      const matched = tracked.filter((file) => globToRegExp(rule.src).test(file));
      expect(matched.length, `${rule.src} matches no tracked file`).toBeGreaterThan(0);
      expect(rule.dest).toBe(workdirOf('dev'));
    }
  });

  it.each([undefined, 'dev', 'prod'])(
    "deploys helm/noted with values the chart's schema accepts (profile %s)",
    (name) => {
      const releases = pipeline(name).deploy.helm!.releases;
      expect(releases).toHaveLength(1);
      const [release] = releases;
      expect(release!.chartPath).toBe('helm/noted');
      expect(readFileSync(path.join(root, release!.chartPath, 'Chart.yaml'), 'utf8')).toMatch(
        /^name: noted$/m,
      );
      for (const file of release!.valuesFiles ?? [])
        expect(existsSync(path.join(root, file))).toBe(true);
      expect(release!.setValueTemplates).toMatchObject({
        'image.repository': '{{.IMAGE_REPO_noted}}',
        'image.tag': '{{.IMAGE_TAG_noted}}',
      });
      const manifests = render(helmArgs(release!, templateValues));
      for (const deployment of ofKind(manifests, 'Deployment')) {
        expect(deployment.spec.template.spec.containers[0].image).toBe(
          'registry.example.com/noted:abc1234',
        );
      }
      for (const forward of pipeline(name).portForward) {
        expect(forward.resourceType).toBe('service');
        const service = find(manifests, 'Service', forward.resourceName);
        expect(service.spec.ports.map((p: { port: number }) => p.port)).toContain(forward.port);
      }
    },
  );

  it('dev runs every module in one pod whose sources can be synced', () => {
    const manifests = render(helmArgs(pipeline('dev').deploy.helm!.releases[0]!, templateValues));
    const deployments = ofKind(manifests, 'Deployment');
    expect(deployments.map((d) => d.spec.template.spec.containers[0].args)).toEqual([
      ['--target=all'],
    ]);
    expect(
      deployments[0]!.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem,
    ).toBe(false);
  });

  it('prod runs one Deployment per service, and refuses to install without the URLs it takes from the environment', () => {
    const release = pipeline('prod').deploy.helm!.releases[0]!;
    const manifests = render(helmArgs(release, templateValues));
    expect(
      ofKind(manifests, 'Deployment')
        .map((d) => d.spec.template.spec.containers[0].args[0])
        .sort(),
    ).toEqual([
      '--target=ai',
      '--target=billing',
      '--target=export',
      '--target=gateway',
      '--target=notes',
      '--target=realtime',
      '--target=users',
    ]);
    const { IMAGE_REPO_noted, IMAGE_TAG_noted } = templateValues;
    const unset = helmTemplate(
      helmArgs(release, { IMAGE_REPO_noted: IMAGE_REPO_noted!, IMAGE_TAG_noted: IMAGE_TAG_noted! }),
    );
    expect(unset.status).not.toBe(0);
    expect(unset.stderr).toContain("values don't meet the specifications of the schema");
  });
});
