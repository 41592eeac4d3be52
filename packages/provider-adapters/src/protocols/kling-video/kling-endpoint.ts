/** The two Kling video endpoints this family drives; a job lives on the endpoint it was created on. */
export const KLING_VIDEO_ENDPOINTS = ['text2video', 'image2video'] as const;
/** One of {@link KLING_VIDEO_ENDPOINTS}. */
export type KlingVideoEndpoint = (typeof KLING_VIDEO_ENDPOINTS)[number];

/** Path of an endpoint's collection (`POST` creates, `GET` lists). */
export function klingEndpointPath(endpoint: KlingVideoEndpoint): string {
  return `/v1/videos/${endpoint}`;
}
