package dev.waitroom.coordinator.lanes;

import dev.waitroom.contract.LaneName;

/** A declared lane of an event and its share of the admission rate (docs/operating/lanes-and-access-codes.md). */
public record Lane(LaneName name, double share) {}
