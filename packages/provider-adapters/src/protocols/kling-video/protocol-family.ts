/** The protocol family this folder implements. */
export const KLING_VIDEO_PROTOCOL_FAMILY = 'kling-video/v1';
