/**
 * Identifiers more than one feature passes around: a grant's and a shopping session's. They live here, below the
 * features, so that the queue port can name a grant without depending on the admission feature.
 */
package dev.waitroom.coordinator.ids;
