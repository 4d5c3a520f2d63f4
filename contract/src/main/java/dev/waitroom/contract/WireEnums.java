package dev.waitroom.contract;

/** Reads enum names from the wire: an unknown or missing name is a malformed request, never a 500. */
final class WireEnums {

    private WireEnums() {}

    static <E extends Enum<E>> E parse(Class<E> type, String value, String field) {
        if (value != null) {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(value)) {
                    return constant;
                }
            }
        }
        throw new MalformedValueException("unknown " + field);
    }
}
