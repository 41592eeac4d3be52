/** `vercel-ai__cohere-reranking.1.json`, byte for byte (see NOTICE.md; `recorded-fixtures.test.ts` proves it). */
export const COHERE_RERANKING_JSON = "{\n  \"id\": \"b44fe75b-e3d3-489a-b61e-1a1aede3ef72\",\n  \"results\": [\n    {\n      \"index\": 1,\n      \"relevance_score\": 0.10183054\n    },\n    {\n      \"index\": 0,\n      \"relevance_score\": 0.03762639\n    }\n  ],\n  \"meta\": {\n    \"api_version\": {\n      \"version\": \"2\"\n    },\n    \"billed_units\": {\n      \"search_units\": 1\n    }\n  }\n}\n";

/** `vercel-ai__togetherai-reranking.1.json`, byte for byte (see NOTICE.md; `recorded-fixtures.test.ts` proves it). */
export const TOGETHERAI_RERANKING_JSON = "{\n  \"id\": \"oGs6Zt9-62bZhn-99529372487b1b0a\",\n  \"object\": \"rerank\",\n  \"model\": \"Salesforce/Llama-Rank-v1\",\n  \"results\": [\n    {\n      \"index\": 0,\n      \"relevance_score\": 0.6475887154399037,\n      \"document\": {}\n    },\n    {\n      \"index\": 5,\n      \"relevance_score\": 0.6323295373206566,\n      \"document\": {}\n    }\n  ],\n  \"usage\": {\n    \"prompt_tokens\": 2966,\n    \"completion_tokens\": 0,\n    \"total_tokens\": 2966\n  }\n}\n";

/** `vercel-ai__voyage-reranking.1.json`, byte for byte (see NOTICE.md; `recorded-fixtures.test.ts` proves it). */
export const VOYAGE_RERANKING_JSON = "{\n  \"object\": \"list\",\n  \"data\": [\n    {\n      \"relevance_score\": 0.5703125,\n      \"index\": 1\n    },\n    {\n      \"relevance_score\": 0.255859375,\n      \"index\": 0\n    }\n  ],\n  \"model\": \"rerank-2.5\",\n  \"usage\": {\n    \"total_tokens\": 12\n  }\n}\n";
