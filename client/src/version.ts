/** This package's version, as in its package.json (a test keeps them equal); sent in the User-Agent header. */
export const VERSION = '0.1.0'
