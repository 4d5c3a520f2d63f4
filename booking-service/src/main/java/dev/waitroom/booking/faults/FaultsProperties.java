package dev.waitroom.booking.faults;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param poolWait how long a request waits for a connection when the pool is limited, before a 503 problem */
@ConfigurationProperties("waitroom.booking.faults")
@ConditionalOnFaultInjection
record FaultsProperties(@DefaultValue("5s") Duration poolWait) {}
