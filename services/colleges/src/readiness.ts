import type { ReadyCheck } from '@ct/service-kit';

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Whether the colleges service has what it serves: the shipped college data loaded (on a first start) and
 * the suggestion index built from it. Until then `/readyz` answers 503 with the reason, so neither a
 * load balancer nor `npm start` sends students to a service whose suggestions would miss most colleges
 * (issue 49: "Wright" answered three names without Wright State University right after readyz said 200).
 */
export class CollegeDataReadiness {
  private reason: string | null = 'the college data is not checked yet';

  /** The shipped data is loading (or being checked): `done` of `total` colleges written, when known. */
  loading(done?: number, total?: number): void {
    this.reason =
      total === undefined
        ? 'the college data is loading'
        : `the college data is loading (${fmt(done ?? 0)} of ${fmt(total)} colleges)`;
  }

  indexing(): void {
    this.reason = 'the college suggestion index is being built';
  }

  ready(): void {
    this.reason = null;
  }

  get isReady(): boolean {
    return this.reason === null;
  }

  /** The `/readyz` check; its reason is sent (it names no host or secret). */
  readyCheck(): ReadyCheck {
    return {
      name: 'college data',
      explains: true,
      check: async () => {
        if (this.reason !== null) throw new Error(this.reason);
      },
    };
  }
}
