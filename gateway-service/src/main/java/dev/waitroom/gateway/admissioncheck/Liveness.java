package dev.waitroom.gateway.admissioncheck;

/** What the live-session registry says about a shopping session. */
enum Liveness {

    /** The registry holds the session at the token's generation. */
    LIVE,
    /** The registry does not hold it (released, expired or superseded). */
    ENDED,
    /** The registry could not be asked. */
    UNKNOWN
}
