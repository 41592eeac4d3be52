/*
 * Fixture files as string constants, for the conformance cases (which run where nothing may read files).
 * `recorded-fixtures.test.ts` proves each constant equals its file byte for byte; origins are in NOTICE.md.
 */

/** `constructed__create-numeric-task-id.txt`: a create answer whose `task_id` is an unquoted 18-digit JSON number. */
export const KLING_CREATE_NUMERIC_TASK_ID_BODY = "{\"code\":0,\"message\":\"SUCCEED\",\"request_id\":\"req-kling-create-0010\",\"data\":{\"task_id\":866889456698785798,\"task_status\":\"submitted\"}}\n";
