package dev.waitroom.queue.config;

import dev.waitroom.testsupport.ConfigurationMetadataContract;

/** This service's configuration metadata, checked by the tests every service runs ({@link ConfigurationMetadataContract}). */
class ConfigurationMetadataTests implements ConfigurationMetadataContract {}
