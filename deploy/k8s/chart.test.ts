import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  find,
  helmTemplate,
  ofKind,
  render,
  root,
  valuesFile,
  type Json,
  type Manifest,
} from './render.js';

/** What each services entry of the values files declares, for checking what is rendered. */
interface Declared {
  http: number;
  grpc: number | undefined;
  public: boolean;
  database: boolean;
  uses: string[];
  /** Services besides the gateway that call its HTTP port as a user. */
  httpFrom?: string[];
}
const declared: Record<
  'gateway' | 'users' | 'notes' | 'ai' | 'billing' | 'realtime' | 'export',
  Declared
> = {
  gateway: { http: 8080, grpc: undefined, public: true, database: false, uses: [] },
  // Imports read the month's usage and write notes through these two as the user; one's data
  // reads the account and the captured files. A deleted account's Keycloak user goes from here.
  users: {
    http: 4101,
    grpc: 5101,
    public: false,
    database: true,
    uses: ['keycloakAdmin'],
    httpFrom: ['export'],
  },
  notes: {
    http: 4102,
    grpc: 5102,
    public: false,
    database: true,
    uses: ['objectStore'],
    httpFrom: ['export'],
  },
  // One's data reads chats and settings, and the plan, as the user.
  ai: {
    http: 4103,
    grpc: 5103,
    public: false,
    database: true,
    uses: ['openai'],
    httpFrom: ['export'],
  },
  billing: {
    http: 4104,
    grpc: 5104,
    public: false,
    database: true,
    uses: ['stripe'],
    httpFrom: ['export'],
  },
  // Owns no data; its gRPC port serves the health service only.
  realtime: { http: 4105, grpc: 5105, public: false, database: false, uses: [] },
  // Reads notes over gRPC; owns only the Notion connections.
  export: { http: 4106, grpc: 5106, public: false, database: true, uses: [] },
};

const external = render(['--values', valuesFile('external')]);
const full = render(['--values', valuesFile('full')]);
const defaults = render();

const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const envOf = (deployment: Manifest): Record<string, { value?: string; valueFrom?: Json }> =>
  Object.fromEntries(
    containerOf(deployment).env.map((e: { name: string }) => [e.name, e] as const),
  );

describe.each([
  [
    'split, external servers',
    external,
    ['gateway', 'users', 'notes', 'ai', 'billing', 'realtime', 'export'],
  ],
  [
    'split, every option on',
    full,
    ['gateway', 'users', 'notes', 'ai', 'billing', 'realtime', 'export'],
  ],
] as const)('the chart (%s)', (_, manifests, services) => {
  it('renders a Deployment, Service, PodDisruptionBudget and NetworkPolicy for every services entry, and an HPA where it autoscales', () => {
    expect(
      ofKind(manifests, 'Deployment')
        .map((d) => d.metadata.name)
        .filter((n) => !n.endsWith('keycloak'))
        .sort(),
    ).toEqual(services.map((s) => `noted-${s}`).sort());
    for (const name of services) {
      const deployment = find(manifests, 'Deployment', `noted-${name}`);
      expect(containerOf(deployment).args).toEqual([`--target=${name}`]);
      find(manifests, 'Service', `noted-${name}`);
      find(manifests, 'PodDisruptionBudget', `noted-${name}`);
      find(manifests, 'NetworkPolicy', `noted-${name}`);
      const hpa = manifests.find(
        (m) => m.kind === 'HorizontalPodAutoscaler' && m.metadata.name === `noted-${name}`,
      );
      if (name === 'billing' && manifests === full) {
        expect(hpa).toBeUndefined();
        expect(deployment.spec.replicas).toBe(1);
      } else {
        expect(hpa?.spec.scaleTargetRef).toEqual({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `noted-${name}`,
        });
        // The HPA owns the replica count.
        expect(deployment.spec.replicas).toBeUndefined();
      }
    }
  });

  it('gives each service its ports, probes on /healthz, /readyz and the gRPC health service, and its own listen address', () => {
    for (const name of services) {
      const expected: Declared = declared[name];
      const deployment = find(manifests, 'Deployment', `noted-${name}`);
      const container = containerOf(deployment);
      const ports = Object.fromEntries(
        container.ports.map((p: { name: string; containerPort: number }) => [
          p.name,
          p.containerPort,
        ]),
      );
      expect(ports).toEqual({
        http: expected.http,
        metrics: 9464,
        ...(expected.grpc ? { grpc: expected.grpc } : {}),
      });
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      if (expected.grpc) {
        expect(container.livenessProbe.grpc).toEqual({ port: expected.grpc });
      } else {
        expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      }
      const env = envOf(deployment);
      const prefix = name.toUpperCase();
      const httpPortEnv = name === 'gateway' ? 'PORT' : `${prefix}_HTTP_PORT`;
      expect(env[httpPortEnv]?.value).toBe(String(expected.http));
      if (expected.grpc) expect(env[`${prefix}_GRPC_ADDR`]?.value).toBe(`0.0.0.0:${expected.grpc}`);
      expect(env.NOTED_METRICS_PORT?.value).toBe('9464');

      const servicePorts = find(manifests, 'Service', `noted-${name}`).spec.ports.map(
        (p: { name: string; port: number }) => [p.name, p.port],
      );
      expect(Object.fromEntries(servicePorts)).toEqual(ports);
    }
  });

  it('gives each gRPC service a headless Service listing its ready pods, and the gateway none', () => {
    for (const name of services) {
      const expected: Declared = declared[name];
      const headless = manifests.find(
        (m) => m.kind === 'Service' && m.metadata.name === `noted-${name}-grpc`,
      );
      if (!expected.grpc) {
        expect(headless).toBeUndefined();
        continue;
      }
      const deployment = find(manifests, 'Deployment', `noted-${name}`);
      expect(headless?.spec).toEqual({
        clusterIP: 'None',
        publishNotReadyAddresses: false,
        selector: deployment.spec.selector.matchLabels,
        ports: [
          {
            name: 'grpc',
            port: expected.grpc,
            targetPort: 'grpc',
            protocol: 'TCP',
            appProtocol: 'kubernetes.io/h2c',
          },
        ],
      });
      expect(deployment.spec.template.metadata.labels).toMatchObject(headless?.spec.selector);
      // The pods it lists are those the NetworkPolicy guards, on the port it opens to services.
      const policy = find(manifests, 'NetworkPolicy', `noted-${name}`);
      expect(policy.spec.podSelector.matchLabels).toEqual(headless?.spec.selector);
      expect(
        policy.spec.ingress.filter((r: Json) => r.ports.some((p: Json) => p.port === 'grpc')),
      ).toHaveLength(1);
      // The ClusterIP Service keeps its gRPC port, for anything that still calls it there.
      expect(
        find(manifests, 'Service', `noted-${name}`).spec.ports.map((p: Json) => p.name),
      ).toContain('grpc');
    }
    const headless = ofKind(manifests, 'Service').filter((m) => m.spec.clusterIP === 'None');
    expect(headless.map((m) => m.metadata.name).sort()).toEqual(
      services
        .filter((name) => declared[name].grpc)
        .map((name) => `noted-${name}-grpc`)
        .sort(),
    );
  });

  it('runs every pod as a non-root user on a read-only root filesystem, with no capabilities, seccomp RuntimeDefault and /tmp as an emptyDir', () => {
    for (const deployment of ofKind(manifests, 'Deployment').filter(
      (d) => d.metadata.name !== 'noted-keycloak',
    )) {
      const pod = deployment.spec.template.spec;
      const container = containerOf(deployment);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 10001,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      const tmp = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
      expect(pod.volumes.find((v: { name: string }) => v.name === tmp.name).emptyDir).toBeDefined();
      expect(container.resources.requests.cpu).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
    }
  });

  it('hands each service only the credentials it uses', () => {
    for (const name of services) {
      const expected: Declared = declared[name];
      const env = envOf(find(manifests, 'Deployment', `noted-${name}`));
      expect(env.NOTED_INTERNAL_SECRET?.valueFrom.secretKeyRef.key).toBe('NOTED_INTERNAL_SECRET');
      expect('DATABASE_URL' in env).toBe(expected.database);
      expect(`${name.toUpperCase()}_DATABASE_URL` in env).toBe(expected.database);
      expect('S3_SECRET_KEY' in env).toBe(expected.uses.includes('objectStore'));
      // Without Stripe's keys (external) billing runs with payments disabled.
      expect('STRIPE_SECRET_KEY' in env).toBe(
        manifests === full && expected.uses.includes('stripe'),
      );
      // Every service knows whether payments are on (the free plan follows), not the key.
      expect(env.PAYMENTS_ENABLED?.value).toBe(manifests === full ? 'true' : undefined);
      if (manifests === full)
        expect('OPENAI_API_KEY' in env).toBe(expected.uses.includes('openai'));
      // Without the admin client's secret (external) deleted accounts stay in Keycloak.
      expect('KEYCLOAK_ADMIN_CLIENT_SECRET' in env).toBe(
        manifests === full && expected.uses.includes('keycloakAdmin'),
      );
      // Another service's database URL never reaches this one.
      for (const other of services.filter((o) => o !== name)) {
        expect(`${other.toUpperCase()}_DATABASE_URL` in env).toBe(false);
      }
    }
  });

  it('tells every service where the others listen, in the ConfigMap', () => {
    const data = find(manifests, 'ConfigMap', 'noted').data;
    for (const name of services) {
      const expected: Declared = declared[name];
      expect(data[`${name.toUpperCase()}_URL`]).toBe(`http://noted-${name}:${expected.http}`);
      // gRPC through the headless Service: every ready pod, for the clients to balance over.
      // The service's own pod listens at its env's 0.0.0.0 address, which wins over envFrom.
      if (expected.grpc)
        expect(data[`${name.toUpperCase()}_GRPC_ADDR`]).toBe(
          `dns:///noted-${name}-grpc.noted.svc.cluster.local:${expected.grpc}`,
        );
      else expect(data[`${name.toUpperCase()}_GRPC_ADDR`]).toBeUndefined();
    }
    expect(data.KEYCLOAK_URL).toMatch(/^https:\/\//);
    expect(data.NATS_URL).toMatch(/^nats:\/\//);
    expect(data.S3_ENDPOINT).toMatch(/^https?:\/\//);
    // Browsers upload large files straight to the store only where it is published.
    expect(data.S3_PUBLIC_ENDPOINT).toBe(
      manifests === external ? 'https://media.example.com' : undefined,
    );
  });

  it('runs the export service without the bus, reading notes over gRPC, with its own database, behind the gateway', () => {
    const exporter = find(manifests, 'Deployment', 'noted-export');
    const container = containerOf(exporter);
    expect(container.args).toEqual(['--target=export']);
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'noted' } }]);
    const data = find(manifests, 'ConfigMap', 'noted').data;
    // Where it reads notes, and the public URL its links and front matter point at.
    expect(data.NOTES_GRPC_ADDR).toMatch(/^dns:\/\/\/noted-notes-grpc\./);
    expect(data.PUBLIC_URL).toBe('https://notes.example.com');
    expect(data.EXPORT_URL).toBe('http://noted-export:4106');
    const env = envOf(exporter);
    expect(env.EXPORT_HTTP_PORT?.value).toBe('4106');
    expect(env.EXPORT_GRPC_ADDR?.value).toBe('0.0.0.0:5106');
    // Its database (the Notion connections) and the internal secret, nothing else.
    expect(
      Object.entries(env)
        .filter(([, e]) => e.valueFrom)
        .map(([key]) => key),
    ).toEqual(['NOTED_INTERNAL_SECRET', 'DATABASE_URL', 'EXPORT_DATABASE_URL']);
    const policy = find(manifests, 'NetworkPolicy', 'noted-export');
    const http = policy.spec.ingress.find((r: Json) =>
      r.ports.some((p: Json) => p.port === 'http'),
    );
    expect(http.from).toEqual([
      {
        podSelector: {
          matchLabels: find(manifests, 'Deployment', 'noted-gateway').spec.selector.matchLabels,
        },
      },
    ]);
  });

  it("lets the export service call the routes it uses as the user (imports, plan checks, one's data), and nothing else but the gateway", () => {
    const data = find(manifests, 'ConfigMap', 'noted').data;
    expect(data.NOTES_URL).toBe('http://noted-notes:4102');
    expect(data.USERS_URL).toBe('http://noted-users:4101');
    expect(data.AI_URL).toBe('http://noted-ai:4103');
    expect(data.BILLING_URL).toBe('http://noted-billing:4104');
    const selector = (name: string) =>
      find(manifests, 'Deployment', `noted-${name}`).spec.selector.matchLabels;
    const httpFrom = (name: string) =>
      find(manifests, 'NetworkPolicy', `noted-${name}`).spec.ingress.find((r: Json) =>
        r.ports.some((p: Json) => p.port === 'http'),
      ).from;
    for (const name of ['notes', 'users', 'ai', 'billing']) {
      expect(httpFrom(name)).toEqual(
        expect.arrayContaining([
          { podSelector: { matchLabels: selector('gateway') } },
          { podSelector: { matchLabels: selector('export') } },
        ]),
      );
      expect(httpFrom(name)).toHaveLength(2);
    }
    expect(httpFrom('realtime')).toEqual([{ podSelector: { matchLabels: selector('gateway') } }]);
  });

  it('runs the realtime service on the bus with no database, and points the gateway at it for /ws', () => {
    const realtime = find(manifests, 'Deployment', 'noted-realtime');
    const container = containerOf(realtime);
    expect(container.args).toEqual(['--target=realtime']);
    const data = find(manifests, 'ConfigMap', 'noted').data;
    // NATS_URL (every replica hears every event) and PUBLIC_URL (the Origin a WebSocket upgrade
    // must come from) reach it from the ConfigMap.
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'noted' } }]);
    expect(data.NATS_URL).toMatch(/^nats:\/\//);
    expect(data.PUBLIC_URL).toBe('https://notes.example.com');
    expect(data.DATABASE_URL).toBeUndefined();
    const env = envOf(realtime);
    expect(env.REALTIME_HTTP_PORT?.value).toBe('4105');
    expect(env.REALTIME_GRPC_ADDR?.value).toBe('0.0.0.0:5105');
    expect(Object.keys(env).filter((key) => key.includes('DATABASE_URL'))).toEqual([]);
    // No credential but the internal secret, which signs and checks its live-connection tokens.
    expect(
      Object.entries(env)
        .filter(([, e]) => e.valueFrom)
        .map(([key]) => key),
    ).toEqual(['NOTED_INTERNAL_SECRET']);

    // The gateway reads REALTIME_URL from the same ConfigMap, and nothing on its pod overrides it.
    const gateway = find(manifests, 'Deployment', 'noted-gateway');
    expect(containerOf(gateway).envFrom).toEqual([{ configMapRef: { name: 'noted' } }]);
    expect(envOf(gateway).REALTIME_URL).toBeUndefined();
    expect(data.REALTIME_URL).toBe('http://noted-realtime:4105');
    const service = find(manifests, 'Service', 'noted-realtime');
    expect(service.spec.selector).toEqual(realtime.spec.selector.matchLabels);
    expect(service.spec.ports.find((p: Json) => p.name === 'http')).toMatchObject({
      port: 4105,
      targetPort: 'http',
    });
    // Its HTTP port (the token and the WebSocket upgrades) admits the gateway's pods only.
    const policy = find(manifests, 'NetworkPolicy', 'noted-realtime');
    const http = policy.spec.ingress.find((r: Json) =>
      r.ports.some((p: Json) => p.port === 'http'),
    );
    expect(http.from).toEqual([
      {
        podSelector: {
          matchLabels: find(manifests, 'Deployment', 'noted-gateway').spec.selector.matchLabels,
        },
      },
    ]);
  });

  it('lets only the gateway reach services over HTTP, only services reach gRPC, and the monitoring namespace the metrics', () => {
    const selectorOf = (component: string) => ({
      'app.kubernetes.io/name': 'noted',
      'app.kubernetes.io/instance': 'noted',
      'app.kubernetes.io/component': component,
    });
    for (const name of services) {
      const expected: Declared = declared[name];
      const policy = find(manifests, 'NetworkPolicy', `noted-${name}`);
      expect(policy.spec.podSelector.matchLabels).toEqual(selectorOf(name));
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      const rule = (port: string) => {
        const rules = policy.spec.ingress.filter((r: Json) =>
          r.ports.some((p: Json) => p.port === port),
        );
        expect(rules).toHaveLength(1);
        return rules[0];
      };
      const http = rule('http');
      if (expected.public) {
        if (manifests === full)
          expect(http.from).toEqual([
            {
              namespaceSelector: {
                matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' },
              },
            },
          ]);
        else expect(http.from).toBeUndefined();
      } else {
        const callers = ['gateway', ...(expected.httpFrom ?? [])].sort();
        expect(http.from).toEqual(
          callers.map((caller) => ({ podSelector: { matchLabels: selectorOf(caller) } })),
        );
      }
      if (expected.grpc) {
        const grpc = rule('grpc');
        expect(grpc.from).toHaveLength(1);
        const { matchLabels, matchExpressions } = grpc.from[0].podSelector;
        expect(matchLabels).toEqual({
          'app.kubernetes.io/name': 'noted',
          'app.kubernetes.io/instance': 'noted',
        });
        expect(matchExpressions).toEqual([
          { key: 'app.kubernetes.io/component', operator: 'In', values: [...services].sort() },
        ]);
      } else {
        expect(
          policy.spec.ingress.some((r: Json) => r.ports.some((p: Json) => p.port === 'grpc')),
        ).toBe(false);
      }
      const metrics = rule('metrics');
      expect(metrics.from[0].namespaceSelector).toEqual({
        matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
      });
      expect(policy.spec.ingress).toHaveLength(expected.grpc ? 3 : 2);
    }
  });

  it('sends the public traffic to the gateway, WebSockets included', () => {
    const ingress = find(manifests, 'Ingress', 'noted');
    const paths = ingress.spec.rules[0].http.paths;
    expect(ingress.spec.rules[0].host).toBe('notes.example.com');
    expect(paths.at(-1)).toEqual({
      path: '/',
      pathType: 'Prefix',
      backend: { service: { name: 'noted-gateway', port: { name: 'http' } } },
    });
  });
});

describe('the migration Job', () => {
  it('runs `noted migrate` for the services that own a database before an install or upgrade, from a hook Secret when the URL is given in values', () => {
    const job = find(external, 'Job', 'noted-migrate');
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const container = job.spec.template.spec.containers[0];
    expect(container.args).toEqual([
      'migrate',
      '--target=ai,billing,export,notes,users',
      '--require-database-url',
    ]);
    const secret = find(external, 'Secret', 'noted-migrate');
    expect(secret.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(secret.metadata.annotations['helm.sh/hook-weight'])).toBeLessThan(
      Number(job.metadata.annotations['helm.sh/hook-weight']),
    );
    expect(
      container.env.find((e: Json) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.name,
    ).toBe('noted-migrate');
    // The chart's ServiceAccount does not exist before a first install.
    expect(job.spec.template.spec.serviceAccountName).toBeUndefined();
  });

  it('runs after install with the trial Postgres, which does not exist before, reading the release Secret', () => {
    const job = find(full, 'Job', 'noted-migrate');
    expect(job.metadata.annotations['helm.sh/hook']).toBe('post-install,pre-upgrade');
    const container = job.spec.template.spec.containers[0];
    expect(container.args[1]).toBe('--target=ai,billing,export,notes,users');
    expect(
      container.env.find((e: Json) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.name,
    ).toBe('noted');
  });

  it('is not rendered for the all-in-one pod, which migrates its embedded databases itself', () => {
    expect(ofKind(defaults, 'Job')).toEqual([]);
  });
});

describe('the gRPC addresses', () => {
  it('follow the release namespace and clusterDomain', () => {
    const data = find(
      render([
        '--values',
        valuesFile('external'),
        '--namespace',
        'notes-prod',
        '--set',
        'clusterDomain=corp.internal',
      ]),
      'ConfigMap',
      'noted',
    ).data;
    expect(data.USERS_GRPC_ADDR).toBe('dns:///noted-users-grpc.notes-prod.svc.corp.internal:5101');
  });

  it('name the headless Services within 63 characters, one each, under a long release name', () => {
    const long = 'a'.repeat(60);
    const manifests = render(['--values', valuesFile('full'), '--set', `fullnameOverride=${long}`]);
    const names = ofKind(manifests, 'Service')
      .filter((m) => m.spec.clusterIP === 'None')
      .map((m) => m.metadata.name)
      .sort();
    expect(names).toEqual(
      ['ai', 'billing', 'export', 'notes', 'realtime', 'users']
        .map((name) => {
          const suffix = `-${name}-grpc`;
          return `${long.slice(0, 63 - suffix.length)}${suffix}`;
        })
        .sort(),
    );
    const data = find(manifests, 'ConfigMap', long).data;
    expect(data.BILLING_GRPC_ADDR).toBe(
      `dns:///${'a'.repeat(50)}-billing-grpc.noted.svc.cluster.local:5104`,
    );
  });
});

describe('the default values (topology all)', () => {
  it('run every module in one pod on a kept volume, reachable on the gateway port', () => {
    const deployment = find(defaults, 'Deployment', 'noted-all');
    expect(containerOf(deployment).args).toEqual(['--target=all']);
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');
    const claim = find(defaults, 'PersistentVolumeClaim', 'noted-all-data');
    expect(claim.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    expect(ofKind(defaults, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(ofKind(defaults, 'PodDisruptionBudget')).toEqual([]);
    expect(envOf(deployment).NOTED_BIND_HOST?.value).toBe('0.0.0.0');
    const data = find(defaults, 'ConfigMap', 'noted').data;
    expect(data.KEYCLOAK_URL).toBeUndefined();
    // Its modules call each other on loopback inside the pod: no gRPC address, no headless Service.
    expect(Object.keys(data).filter((key) => key.endsWith('_GRPC_ADDR'))).toEqual([]);
    expect(ofKind(defaults, 'Service').map((m) => m.metadata.name)).toEqual(['noted-all']);
  });
});

describe('secrets', () => {
  it('keeps inline credentials in the release Secret and reads existing Secrets where named', () => {
    const own = find(external, 'Secret', 'noted').stringData;
    expect(Object.keys(own).sort()).toEqual([
      'DATABASE_URL',
      'NOTED_INTERNAL_SECRET',
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
    ]);
    expect(own.NOTED_INTERNAL_SECRET).toHaveLength(48);
    const ai = envOf(find(full, 'Deployment', 'noted-ai'));
    expect(ai.OPENAI_API_KEY?.valueFrom.secretKeyRef.name).toBe('noted-openai');
    expect(find(full, 'Secret', 'noted').stringData.OPENAI_API_KEY).toBeUndefined();
  });

  it("hands the Keycloak admin client's secret to the users service alone, inline or from a Secret of yours", () => {
    const inline = render([
      '--values',
      valuesFile('external'),
      '--set',
      'keycloak.adminClientSecret=a-client-secret',
    ]);
    expect(find(inline, 'Secret', 'noted').stringData.KEYCLOAK_ADMIN_CLIENT_SECRET).toBe(
      'a-client-secret',
    );
    const yours = render([
      '--values',
      valuesFile('external'),
      '--set',
      'keycloak.existingSecret=noted-keycloak-admin',
    ]);
    expect(find(yours, 'Secret', 'noted').stringData.KEYCLOAK_ADMIN_CLIENT_SECRET).toBeUndefined();
    for (const [manifests, secret] of [
      [inline, 'noted'],
      [yours, 'noted-keycloak-admin'],
    ] as const) {
      for (const deployment of ofKind(manifests, 'Deployment')) {
        const env = envOf(deployment).KEYCLOAK_ADMIN_CLIENT_SECRET;
        if (deployment.metadata.name !== 'noted-users') expect(env).toBeUndefined();
        else
          expect(env?.valueFrom.secretKeyRef).toEqual({
            name: secret,
            key: 'KEYCLOAK_ADMIN_CLIENT_SECRET',
          });
      }
      const data = find(manifests, 'ConfigMap', 'noted').data;
      expect(data.KEYCLOAK_ADMIN_CLIENT_ID).toBe('noted-users');
      expect(data.KEYCLOAK_ADMIN_URL).toBeUndefined();
    }
  });

  it('generates the internal secret and the trial passwords with lookup, so an upgrade keeps them', () => {
    const template = readFileSync(path.join(root, 'helm/noted/templates/_helpers.tpl'), 'utf8');
    expect(template).toMatch(/lookup "v1" "Secret" \.root\.Release\.Namespace/);
    const trial = find(full, 'Secret', 'noted').stringData;
    expect(trial.DATABASE_URL).toBe(
      `postgres://noted:${trial.POSTGRES_PASSWORD}@noted-postgres:5432/noted`,
    );
  });
});

describe('Gateway API, monitoring and the dashboard', () => {
  it('routes the host to the gateway and /auth to the trial Keycloak', () => {
    const route = find(full, 'HTTPRoute', 'noted');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec.hostnames).toEqual(['notes.example.com']);
    expect(
      route.spec.rules.map((r: Json) => [
        r.matches[0].path.value,
        r.backendRefs[0].name,
        r.backendRefs[0].port,
      ]),
    ).toEqual([
      ['/auth', 'noted-keycloak', 8080],
      ['/', 'noted-gateway', 8080],
    ]);
  });

  it('scrapes the metrics port of every service', () => {
    const monitor = find(full, 'ServiceMonitor', 'noted');
    expect(monitor.metadata.labels.release).toBe('kube-prometheus-stack');
    expect(monitor.spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', interval: '30s' },
    ]);
    expect(monitor.spec.selector.matchExpressions[0].values).toEqual([
      'ai',
      'billing',
      'export',
      'gateway',
      'notes',
      'realtime',
      'users',
    ]);
  });

  it('ships a dashboard for the Grafana sidecar that uses only metrics the code exports', () => {
    const dashboard = find(full, 'ConfigMap', 'noted-dashboard');
    expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
    expect(dashboard.metadata.annotations.grafana_folder).toBe('Noted');
    const json = JSON.parse(dashboard.data['noted.json']);
    const expressions: string[] = json.panels.flatMap((p: Json) =>
      (p.targets ?? []).map((t: Json) => t.expr),
    );
    const used = new Set(
      expressions
        .flatMap((e) => e.match(/\bnoted_[a-z_]+/g) ?? [])
        .map((m) => m.replace(/_(bucket|sum|count)$/, '')),
    );
    const sources = [
      ...sourceFiles(path.join(root, 'libs')),
      ...sourceFiles(path.join(root, 'services')),
    ]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const exported = new Set([...sources.matchAll(/name: '(noted_[a-z_]+)'/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(8);
    expect([...used].filter((metric) => !exported.has(metric))).toEqual([]);
    for (const wanted of [
      'noted_http_requests_total',
      'noted_http_request_duration_seconds',
      'noted_events_total',
      'noted_ai_index_lag_seconds',
      'noted_grpc_requests_total',
      'noted_outbox_pending_events',
      'noted_realtime_open_sockets',
      'noted_realtime_drops_total',
      'noted_realtime_fanout_seconds',
      'noted_export_requests_total',
      'noted_export_duration_seconds',
    ]) {
      expect(used).toContain(wanted);
    }
  });
});

describe('values.schema.json', () => {
  it.each([
    ['an unknown topology', ['--set', 'topology=cluster'], 'topology'],
    ['a misspelt top-level key', ['--set', 'replicaCount=3'], 'replicaCount'],
    ['a misspelt service key', ['--set', 'services.users.replica=3'], 'replica'],
    ['an unknown credential a service uses', ['--set', 'services.ai.uses={anthropic}'], 'uses'],
    ['a short internal secret', ['--set', 'internalSecret.value=short'], 'internalSecret'],
    ['a public URL with a path', ['--set', 'publicUrl=https://example.com/app'], 'publicUrl'],
    [
      'a NATS URL of another scheme',
      ['--values', valuesFile('external'), '--set', 'nats.url=http://nats:4222'],
      'nats',
    ],
    [
      'split without Keycloak',
      ['--values', valuesFile('external'), '--set', 'keycloak.url='],
      'keycloak',
    ],
    [
      'split without a database',
      ['--values', valuesFile('external'), '--set', 'database.url='],
      'database',
    ],
    [
      'an S3 endpoint without keys',
      ['--values', valuesFile('external'), '--set', 'objectStore.secretKey='],
      'secretKey',
    ],
    ['an HTTPRoute without a parent', ['--set', 'httpRoute.enabled=true'], 'parentRefs'],
    ['trial servers in the all topology', ['--set', 'trial.enabled=true'], 'trial'],
    ['a cluster domain with a path', ['--set', 'clusterDomain=cluster.local/x'], 'clusterDomain'],
  ])('refuses %s at install', (_, args, path) => {
    const run = helmTemplate(args);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("values don't meet the specifications of the schema");
    expect(run.stderr).toContain(path);
  });
});

describe('the trial Keycloak', () => {
  it('imports the realm Noted ships, with the public URL its placeholders name', () => {
    const realm = JSON.parse(
      find(full, 'ConfigMap', 'noted-keycloak-realm').data['realm-noted.json'],
    ) as { clients: { clientId: string; secret?: string }[] };
    const shipped = JSON.parse(
      readFileSync(path.join(root, 'deploy/keycloak/realm-noted.json'), 'utf8'),
    ) as typeof realm;
    // As shipped, but for the secret of noted-users, which the container's env brings.
    const users = shipped.clients.find((client) => client.clientId === 'noted-users');
    expect(users?.secret).toBeUndefined();
    if (users) users.secret = '${NOTED_USERS_CLIENT_SECRET}';
    expect(realm).toEqual(shipped);
    const keycloak = find(full, 'Deployment', 'noted-keycloak');
    // deploy/k8s/values/full.yaml's publicUrl.
    expect(envOf(keycloak).NOTED_PUBLIC_URL?.value).toBe('https://notes.example.com');
  });

  it("gives the realm's noted-users the release's generated secret, which the users service deletes accounts with", () => {
    const fromSecret = { name: 'noted', key: 'KEYCLOAK_ADMIN_CLIENT_SECRET' };
    const keycloak = find(full, 'Deployment', 'noted-keycloak');
    expect(envOf(keycloak).NOTED_USERS_CLIENT_SECRET?.valueFrom.secretKeyRef).toEqual(fromSecret);
    const users = find(full, 'Deployment', 'noted-users');
    expect(envOf(users).KEYCLOAK_ADMIN_CLIENT_SECRET?.valueFrom.secretKeyRef).toEqual(fromSecret);
    expect(find(full, 'Secret', 'noted').stringData.KEYCLOAK_ADMIN_CLIENT_SECRET).toHaveLength(48);
    // Inside the cluster, as the gateway fetches the signing keys.
    expect(find(full, 'ConfigMap', 'noted').data.KEYCLOAK_ADMIN_URL).toBe(
      'http://noted-keycloak:8080/auth',
    );
  });
});

describe("the README's values example", () => {
  it('installs as written: one Deployment per service, behind an Ingress', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Deploy on Kubernetes'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'noted-readme-values-')), 'values.yaml');
    writeFileSync(file, example ?? '');
    const manifests = render(['--values', file]);
    expect(
      ofKind(manifests, 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([
      'noted-ai',
      'noted-billing',
      'noted-export',
      'noted-gateway',
      'noted-notes',
      'noted-realtime',
      'noted-users',
    ]);
    expect(ofKind(manifests, 'Ingress')).toHaveLength(1);
  });
});

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) yield file;
  }
}
