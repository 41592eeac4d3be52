/** A certificate and key (PEM) for the simulator's HTTPS listener. */
export interface SimulatorCertificate {
  readonly cert: string;
  readonly key: string;
}

/** A fresh self-signed certificate for `127.0.0.1`, `::1` and `localhost` (pass `cert` to a client's trust list). */
export async function createSimulatorCertificate(): Promise<SimulatorCertificate> {
  // Loaded on demand: its X.509 stack is a few hundred modules that a plain-HTTP simulator (the gateway's embedded
  // default) never needs at start-up.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'tokenforge-provider-simulator' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2 as const, value: 'localhost' },
          { type: 7 as const, ip: '127.0.0.1' },
          { type: 7 as const, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
