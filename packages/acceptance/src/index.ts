// The acceptance package is private; its root exposes the provider simulator for examples and host tests.
export { startProviderSimulator, parseSimulatorScenario, SIMULATOR_SCENARIO_HEADER, SIMULATOR_SCENARIO_KINDS } from './simulator/index.js';
export type {
  ProviderSimulator,
  SimulatorRequestRecord,
  StartProviderSimulatorOptions,
  SimulatorScenario,
  SimulatorCredentials,
  SimulatorTransportCredentials,
  SimCallbackDelivery,
  SimJobPhase,
  SimulatorCertificate,
} from './simulator/index.js';
