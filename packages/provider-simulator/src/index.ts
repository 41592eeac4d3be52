export { startProviderSimulator } from './start-provider-simulator.js';
export type { ProviderSimulator, SimulatorRequestRecord, StartProviderSimulatorOptions } from './start-provider-simulator.js';
export { parseSimulatorScenario, SIMULATOR_SCENARIO_HEADER, SIMULATOR_SCENARIO_KINDS } from './scenario.js';
export type { SimulatorScenario } from './scenario.js';
export { SIMULATOR_PROTOCOL_FAMILIES } from './simulator-credentials.js';
export type { SimulatorCredentials, SimulatorTransportCredentials } from './simulator-credentials.js';
export type { SimCallbackDelivery, SimJobPhase } from './jobs/job-store.js';
export { createSimulatorCertificate } from './simulator-certificate.js';
export type { SimulatorCertificate } from './simulator-certificate.js';
