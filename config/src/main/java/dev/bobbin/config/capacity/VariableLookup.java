package dev.bobbin.config.capacity;

/** Where {@code ${name}} in a Hadoop configuration value looks besides the other properties. */
interface VariableLookup {
  /** The JVM's system properties and the process environment, as Hadoop looks them up. */
  VariableLookup SYSTEM = new VariableLookup() {
    @Override
    public String systemProperty(String name) {
      return System.getProperty(name);
    }

    @Override
    public String environment(String name) {
      return System.getenv(name);
    }
  };

  String systemProperty(String name);

  String environment(String name);
}
