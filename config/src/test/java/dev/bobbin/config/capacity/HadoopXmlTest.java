package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hadoop Configuration's file rules: later files win unless final, and ${...} expands. */
class HadoopXmlTest {
  private static final VariableLookup LOOKUP =
      new VariableLookup() {
        @Override
        public String systemProperty(String name) {
          return name.equals("user.name") ? "yarn" : null;
        }

        @Override
        public String environment(String name) {
          return Map.of("TEAM", "analytics", "EMPTY", "").get(name);
        }
      };

  private static HadoopProperties read(String... files) {
    List<HadoopXml.Source> sources = new java.util.ArrayList<>();
    for (int i = 0; i < files.length; i++) {
      sources.add(new HadoopXml.Source(Fixtures.stream("<configuration>" + files[i] + "</configuration>"), "file" + (i + 1) + ".xml"));
    }
    return HadoopXml.read(sources, LOOKUP);
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>";
  }

  @Test
  void aLaterFileOverridesUnlessTheEarlierMarkedItFinal() {
    HadoopProperties p =
        read(
            property("x", "1") + "<property><name>y</name><value>1</value><final>true</final></property>",
            property("x", "2") + property("y", "2"));
    assertThat(p.get("x")).isEqualTo("2");
    assertThat(p.get("y")).isEqualTo("1");
    assertThat(p.warnings()).containsExactly(new ConfigWarning("y", "is final in file1.xml; the value in file2.xml is ignored, as in Hadoop"));
  }

  @Test
  void propertiesMayBeWrittenAsAttributesAndValuesKeepTheirSpaces() {
    HadoopProperties p = read("<property name='acl' value=' admins'/>" + property(" padded ", "  "));
    assertThat(p.get("acl")).isEqualTo(" admins");
    assertThat(p.get("padded")).isEqualTo("  ");
  }

  @Test
  void variablesExpandAsInHadoop() {
    HadoopProperties p =
        read(
            property("base", "60")
                + property("capacity", "${base}")
                + property("queue", "root.${env.TEAM}.${user.name}")
                + property("fallback", "${env.MISSING:-7}/${env.EMPTY:-8}/${env.EMPTY-9}/${env.MISSING-10}")
                + property("unknown", "${no.such.thing}")
                + property("self", "a${self}")
                + property("nested", "${capacity}%"));
    assertThat(p.get("capacity")).isEqualTo("60");
    assertThat(p.get("queue")).isEqualTo("root.analytics.yarn");
    assertThat(p.get("fallback")).isEqualTo("7/8//10");
    assertThat(p.get("unknown")).isEqualTo("${no.such.thing}");
    assertThat(p.get("self")).isEqualTo("a${self}");
    assertThat(p.get("nested")).isEqualTo("60%");
  }

  @Test
  void aSystemPropertyComesBeforeAnotherProperty() {
    HadoopProperties p = read(property("user.name", "hdfs") + property("who", "${user.name}"));
    assertThat(p.get("who")).isEqualTo("yarn");
  }
}
