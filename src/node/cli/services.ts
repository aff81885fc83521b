// An ordered list of services that start one after another and stop in reverse, so each can use what
// the ones before it put in the shared context (the swarm config needs the relay's address, the app
// server needs the config; a chain and its contracts can slot in the same way).

export interface Service<Context> {
  name: string
  /** starts the service, writing what later services need into `context`; returns how to stop it */
  start(context: Context): Promise<(() => Promise<void>) | void>
}

/** What a service needs from an earlier one; throws if the list is in the wrong order. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not started yet: check the order of the services`)
  return value
}

/**
 * Starts `services` in order. If one fails, the ones already started are stopped (in reverse) and its
 * error is rethrown. Resolves with a function that stops them all in reverse order.
 */
export async function startServices<Context>(
  services: readonly Service<Context>[],
  context: Context,
): Promise<() => Promise<void>> {
  const stops: { name: string; stop: () => Promise<void> }[] = []
  const stopAll = async (): Promise<void> => {
    const errors: Error[] = []
    for (const { name, stop } of stops.splice(0).reverse()) {
      await stop().catch((err: Error) =>
        errors.push(new Error(`${name} did not stop cleanly: ${err.message}`)),
      )
    }
    if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join('; '))
  }
  for (const service of services) {
    try {
      const stop = await service.start(context)
      if (stop) stops.push({ name: service.name, stop })
    } catch (err) {
      await stopAll().catch(() => undefined) // the start failure is the error worth reporting
      throw err
    }
  }
  return stopAll
}
