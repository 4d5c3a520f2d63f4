package dev.waitroom.gateway.proofofwork;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The proof-of-work gate on join (docs/design/abuse/proof-of-work.md). Whether an event has it, and how hard it is, is the
 * event's {@code proofOfWorkDifficulty}, set by ops; these are the gateway's settings for every event.
 *
 * @param validity how long a challenge may be solved and used after it was issued; a used solution is remembered in
 *        Redis for as long, so memory grows with joins per second times this
 */
@Validated
@ConfigurationProperties("waitroom.gateway.proof-of-work")
public record ProofOfWorkProperties(
        @NotNull @DefaultValue("5m") Duration validity) {

    public ProofOfWorkProperties {
        if (validity != null && (validity.toSeconds() < 10 || validity.toHours() > 24)) {
            throw new IllegalArgumentException(
                    "waitroom.gateway.proof-of-work.validity is 10s .. 24h, not " + validity);
        }
    }
}
