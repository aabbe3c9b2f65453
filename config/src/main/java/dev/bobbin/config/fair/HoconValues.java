package dev.bobbin.config.fair;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.bobbin.config.SettingsException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Set;

/**
 * Reading single HOCON values with the same rules and messages as the allocation file; numbers
 * and booleans may also be given as strings, and a null value counts as not set.
 */
public final class HoconValues {
  private HoconValues() {}


  public static String key(String at, String k) {
    return at + "." + ConfigUtil.joinPath(k);
  }

  public static ConfigValue present(ConfigObject o, String k) {
    ConfigValue v = o.get(k);
    return v == null || v.valueType() == ConfigValueType.NULL ? null : v;
  }

  public static ConfigObject object(String key, ConfigValue v) {
    if (!(v instanceof ConfigObject o)) throw new SettingsException(key, "must be an object { ... }");
    return o;
  }

  public static void unknownKeys(ConfigObject o, String at, Set<String> known) {
    for (String k : o.keySet()) {
      if (!known.contains(k)) throw new SettingsException(key(at, k), "unknown setting '" + k + "'");
    }
  }

  public static String string(String key, ConfigValue v) {
    if (v.valueType() != ConfigValueType.STRING) {
      throw new SettingsException(key, "must be a string, was " + v.render());
    }
    return (String) v.unwrapped();
  }

  static double number(String key, ConfigValue v) {
    if (v.valueType() == ConfigValueType.NUMBER) return ((Number) v.unwrapped()).doubleValue();
    if (v.valueType() == ConfigValueType.STRING) return Values.number(key, (String) v.unwrapped());
    throw new SettingsException(key, "not a number: " + v.render());
  }

  static boolean bool(String key, ConfigValue v) {
    if (v.valueType() == ConfigValueType.BOOLEAN) return (Boolean) v.unwrapped();
    if (v.valueType() == ConfigValueType.STRING) return Values.bool(key, (String) v.unwrapped());
    throw new SettingsException(key, "not true or false: " + v.render());
  }

  static int apps(String key, ConfigValue v) {
    if (v.valueType() == ConfigValueType.STRING) return Values.apps(key, Values.wholeNumber(key, (String) v.unwrapped()));
    if (v.valueType() == ConfigValueType.NUMBER) {
      try {
        return Values.apps(key, new BigDecimal(v.unwrapped().toString()).longValueExact());
      } catch (ArithmeticException | NumberFormatException e) {
        throw new SettingsException(key, "not a whole number: " + v.render());
      }
    }
    throw new SettingsException(key, "not a whole number: " + v.render());
  }

  /** A bare number would be milliseconds to HOCON but seconds to Hadoop users; require a unit. */
  public static Duration duration(String key, ConfigValue v) {
    if (v.valueType() == ConfigValueType.NUMBER) {
      throw new SettingsException(key, "give a unit, e.g. " + v.render() + "s; a bare number is ambiguous");
    }
    try {
      return Values.timeout(key, ConfigFactory.empty().withValue("d", v).getDuration("d"));
    } catch (ConfigException e) {
      throw new SettingsException(key, "not a duration: " + v.render());
    }
  }
}
