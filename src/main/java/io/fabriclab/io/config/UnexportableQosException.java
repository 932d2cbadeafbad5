package io.fabriclab.io.config;

/**
 * The design holds a value a vendor's configuration cannot express (out of the vendor's range, a
 * finer resolution than it accepts, a per-port setting it only has per switch). Exports refuse
 * rather than silently write a different value than the one the design was reviewed with.
 */
public class UnexportableQosException extends IllegalArgumentException {
    public UnexportableQosException(String message) {
        super(message);
    }
}
