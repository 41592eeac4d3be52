// The acceptance package is private; its root re-exports the provider simulator (now @tokenforge/provider-simulator)
// for the examples that still import it from here.
export { startProviderSimulator, parseSimulatorScenario, SIMULATOR_SCENARIO_HEADER, SIMULATOR_SCENARIO_KINDS } from '@tokenforge/provider-simulator';
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
} from '@tokenforge/provider-simulator';
