package dev.waitroom.booking.problem;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Request limits: bodies are small JSON documents, so anything larger is refused before parsing. */
@Validated
@ConfigurationProperties("waitroom.booking.http")
record HttpLimitsProperties(@DefaultValue("16384") @Min(256) @Max(1048576) long maxBodyBytes) {
}
