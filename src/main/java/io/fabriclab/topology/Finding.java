package io.fabriclab.topology;

/**
 * One lint finding about a fabric.
 *
 * @param code    stable machine-readable rule name, e.g. "PFC_TOO_MANY_PRIORITIES"
 * @param subject what it is about: a device id, a port ("device:port"), a link id, a QoS profile or a rail
 * @param message what is wrong, with the numbers
 * @param fix     the change that resolves it, in one line
 */
public record Finding(Severity severity, String code, String subject, String message, String fix) {

    /** ERROR: wrong or unsafe as designed; WARNING: likely a mistake; INFO: worth knowing. */
    public enum Severity { ERROR, WARNING, INFO }

    @Override
    public String toString() {
        return severity + " " + code + " [" + subject + "] " + message + " -- fix: " + fix;
    }
}
