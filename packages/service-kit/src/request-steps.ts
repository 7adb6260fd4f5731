import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A step of every request, run when it arrives (after its identity is read): sets headers, counts, or
 * refuses the request by returning the error to answer with. The first error ends the steps. A step that
 * must wait (a count kept in Redis) returns a promise of the same; the others stay synchronous and cost
 * no promise.
 */
export type RequestStep = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Error | undefined | void | Promise<Error | undefined | void>;

const STEPS = Symbol('requestSteps');
type WithSteps = { [STEPS]?: RequestStep[] };

/**
 * Makes `app`'s one `onRequest` hook: `first` (the identity: an error, nothing, or a promise of either
 * when it waits for a token check), then every step added with `addRequestStep`, in the order added. Each Fastify hook costs its own turn of the hook
 * runner per request; the gateway had five on every request (identity, metrics, security headers, rate
 * limit, ambiguous paths), now one.
 */
export function installRequestSteps(
  app: FastifyInstance,
  first: (request: FastifyRequest) => Error | undefined | Promise<Error | undefined>,
): void {
  const steps: RequestStep[] = [];
  app.decorate(STEPS, steps);
  const run = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void, from = 0): void => {
    for (let i = from; i < steps.length; i++) {
      let out: ReturnType<RequestStep>;
      try {
        out = steps[i]!(request, reply);
      } catch (thrown) {
        return done(thrown as Error);
      }
      if (out instanceof Promise) {
        out.then(
          (err) => (err ? done(err) : run(request, reply, done, i + 1)),
          (err: unknown) => done(err as Error),
        );
        return;
      }
      if (out) return done(out);
    }
    done();
  };
  // Callback style: on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    let before: Error | undefined | Promise<Error | undefined>;
    try {
      before = first(request);
    } catch (err) {
      return done(err as Error);
    }
    if (before instanceof Promise)
      before.then(
        (err) => (err ? done(err) : run(request, reply, done)),
        (err: unknown) => done(err as Error),
      );
    else if (before) done(before);
    else run(request, reply, done);
  });
}

/**
 * Adds a step to every request of the app (whichever plugin adds it: the steps are the app's, not an
 * encapsulated context's), after those added before it. An app without the one hook (no
 * `installRequestSteps`) gets a hook of its own for the step.
 */
export function addRequestStep(app: FastifyInstance, step: RequestStep): void {
  const steps = (app as unknown as WithSteps)[STEPS];
  if (steps) {
    steps.push(step);
    return;
  }
  app.addHook('onRequest', (request, reply, done) => {
    const out = step(request, reply);
    if (out instanceof Promise)
      out.then(
        (err) => (err ? done(err) : done()),
        (err: unknown) => done(err as Error),
      );
    else if (out) done(out);
    else done();
  });
}
