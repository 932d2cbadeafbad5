package io.fabriclab.io.config;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

/** One vendor's rendering of the QoS a fabric was designed with, for one switch. */
public interface SwitchConfigFormat {

    Vendor vendor();

    /**
     * The configuration of {@code device} (a switch of {@code fabric}) as this vendor's text.
     *
     * @throws UnexportableQosException when the design holds a value this vendor cannot express
     */
    String render(Fabric fabric, Device device);
}
