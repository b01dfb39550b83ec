/**
 * SHA-256 of the API document the catalog quotes, byte for byte. A self-test recomputes it from the document,
 * so a recording or report can say which wording it was judged against.
 */
export const apiDocumentHash = 'sha256:ba3ad0c6786ab923aea98d22b5caca31bc80969595a9d5c2a8ce1c938a9419fd';
