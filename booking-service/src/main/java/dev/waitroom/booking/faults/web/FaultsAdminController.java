package dev.waitroom.booking.faults.web;

import dev.waitroom.booking.faults.ConditionalOnFaultInjection;
import dev.waitroom.booking.faults.FaultSettings;
import dev.waitroom.booking.faults.Faults;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Ops: switch fault injection on and off at run time (ops token checked by the /admin/** filter). */
@RestController
@ConditionalOnFaultInjection
@RequestMapping("/admin/booking/faults")
class FaultsAdminController {

    private final Faults faults;

    FaultsAdminController(Faults faults) {
        this.faults = faults;
    }

    @GetMapping
    FaultSettings current() {
        return faults.current();
    }

    /** Replaces the settings; omitted fields are off. */
    @PutMapping
    FaultSettings set(@RequestBody FaultRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("a body is required");
        }
        return faults.set(new FaultSettings(
                request.latencyMs() == null ? 0 : request.latencyMs(),
                request.errorRate() == null ? 0.0 : request.errorRate(),
                request.poolLimit() == null ? 0 : request.poolLimit()));
    }

    @DeleteMapping
    FaultSettings clear() {
        return faults.clear();
    }

    record FaultRequest(Long latencyMs, Double errorRate, Integer poolLimit) {}
}
