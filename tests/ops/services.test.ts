// The one list of services (SERVICES in packages/contracts) against what is derived from it or must agree with it.
import fs from 'node:fs';
import { SERVICE_NAMES, serviceUrlVar } from '@ct/contracts';
import { MODULES } from '@ct/gateway/modules';
import { BaseConfig } from '@ct/service-kit';
import { describe, expect, it } from 'vitest';
import { readYamlDocs } from './lib/kustomize.ts';
import { PROCESSES, rel, workspaces } from './lib/sources.ts';

describe('the list of services', () => {
  it('names every folder of services/, each a workspace', () => {
    expect(fs.readdirSync(rel('services')).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const s of SERVICE_NAMES) expect(workspaces()).toContain(`services/${s}`);
  });

  it('gives the embedded run one module per service, in its order', () => {
    expect(MODULES.map((m) => m.name)).toEqual(SERVICE_NAMES);
  });

  it('gives every process a URL variable the config schema reads, and the distributed run a process each', () => {
    for (const s of SERVICE_NAMES) expect(Object.keys(BaseConfig.properties)).toContain(serviceUrlVar(s));
    expect(PROCESSES.map((p) => p.name)).toEqual([...SERVICE_NAMES, 'gateway']);
  });

  it('gives every service a k8s/base folder on the service template, and nothing else one', () => {
    const dirs = fs.readdirSync(rel('k8s/base'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(dirs.map((d) => d.name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const s of SERVICE_NAMES) {
      const [k] = readYamlDocs(rel('k8s/base', s, 'kustomization.yaml')) as Array<{ resources: string[] }>;
      expect(k!.resources, s).toContain('../../service');
    }
  });
});
