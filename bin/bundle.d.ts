/** The bundle's file URL when it is fresh, else undefined (bin/bundle.js). */
export function freshBundle (given: string | undefined): string | undefined
