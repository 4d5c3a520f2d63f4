#!/usr/bin/env node
'use strict';
// Sends one shop signal from a shell (docs/integration/shop-signals.md):
//   WAITROOM_INTEGRATION_CREDENTIAL=wric_... waitroom-signal <gatewayUrl> <eventId> purchase-completed <sessionId> <orderId>
//   ... sold-out [category]      ... session-release <sessionId>
// The credential comes from the environment, never from the arguments (which other users of the machine can read).
// Prints the answer as JSON; exits 1 with the problem on stderr when the signal is refused, 2 on wrong usage.

const { shopSignals, SignalRefused } = require('../signals');

async function main(argv) {
  const [gatewayUrl, eventId, signal, ...rest] = argv;
  const client = shopSignals({ gatewayUrl, eventId, credential: process.env.WAITROOM_INTEGRATION_CREDENTIAL });
  switch (signal) {
    case 'purchase-completed': return client.purchaseCompleted(rest[0], rest[1]);
    case 'sold-out': return client.soldOut(rest[0]);
    case 'session-release': return client.sessionRelease(rest[0]);
    default: throw new TypeError('signal is one of purchase-completed, sold-out, session-release');
  }
}

main(process.argv.slice(2)).then(
  (answer) => { process.stdout.write(JSON.stringify(answer) + '\n'); },
  (e) => {
    if (e instanceof SignalRefused) {
      process.stderr.write(JSON.stringify({ status: e.status, problem: e.problem }) + '\n');
      process.exitCode = 1;
    } else {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 2;
    }
  });
