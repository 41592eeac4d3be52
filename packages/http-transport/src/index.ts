export { createHttpProviderTransport } from './create-http-provider-transport.js';
export type { HttpProviderPoolUse, HttpProviderTransport } from './create-http-provider-transport.js';
export type {
  CreateHttpProviderTransportOptions,
  HttpTransportCredentials,
  HttpTransportHostnameResolver,
  HttpTransportPolicy,
} from './http-transport-options.js';
export {
  HTTP_TRANSPORT_CONFIGURATION_ERROR_CODES,
  HttpTransportConfigurationError,
  isHttpTransportConfigurationError,
} from './http-transport-configuration-error.js';
export type { HttpTransportConfigurationErrorCode } from './http-transport-configuration-error.js';
export { RESTRICTED_ADDRESS_CATEGORIES, classifyAddress } from './address-policy/classify-address.js';
export type { AddressCategory, RestrictedAddressCategory } from './address-policy/classify-address.js';
export { findAddressRefusal, findHostnameRefusal } from './address-policy/address-policy.js';
export type { AddressRules } from './address-policy/address-policy.js';
export { HttpTransportDiagnostic } from './failure/transport-diagnostic.js';
export { MIN_REDACTED_SECRET_LENGTH } from './response/response-redactor.js';
export { CONNECTION_POOL_EXHAUSTED_CODE, isConnectionPoolExhausted } from './pool/connection-permits.js';
export { sendOutboundRequest } from './outbound/send-outbound-request.js';
export type { OutboundRequest, OutboundResult } from './outbound/send-outbound-request.js';
