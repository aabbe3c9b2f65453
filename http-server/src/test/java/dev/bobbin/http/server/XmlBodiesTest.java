package dev.bobbin.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class XmlBodiesTest {
  private static JsonNode json(String text) throws Exception {
    return RequestJson.mapper().readTree(text);
  }

  @Test
  void writesArraysAsTheFieldsElementRepeatedAndLeavesNullsOut() throws Exception {
    String xml = new String(XmlBodies.write(json("""
        {"apps":{"app":[{"id":"a1","tags":"x,y","progress":0.5,"gone":null},{"id":"a2","ok":true}]}}"""), Set.of()),
        StandardCharsets.UTF_8);
    assertThat(xml).endsWith("<apps><app><id>a1</id><tags>x,y</tags><progress>0.5</progress></app>"
        + "<app><id>a2</id><ok>true</ok></app></apps>");
    assertThat(new String(XmlBodies.write("appstate", json("{\"state\":\"KILLED\"}")), StandardCharsets.UTF_8))
        .endsWith("<appstate><state>KILLED</state></appstate>");
    assertThat(new String(XmlBodies.write("x", json("{\"t\":\"<&>\"}")), StandardCharsets.UTF_8))
        .endsWith("<x><t>&lt;&amp;&gt;</t></x>");
  }

  @Test
  void aTypeJaxbTellsSubclassesApartByIsItsXsiType() throws Exception {
    String xml = new String(XmlBodies.write("scheduler", json("""
        {"schedulerInfo":{"type":"fairScheduler","rootQueue":{"queueName":"root",
          "childQueues":{"queue":[{"type":"fairSchedulerLeafQueueInfo","queueName":"root.a"}]}}}}"""),
        Set.of("fairScheduler", "fairSchedulerLeafQueueInfo")), StandardCharsets.UTF_8);
    String xsi = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
    assertThat(xml).contains("<schedulerInfo " + xsi + " xsi:type=\"fairScheduler\"><rootQueue>")
        .contains("<queue " + xsi + " xsi:type=\"fairSchedulerLeafQueueInfo\"><queueName>root.a</queueName></queue>")
        .doesNotContain("<type>");
    // Elsewhere a type is an element like any other.
    assertThat(new String(XmlBodies.write("timeout", json("{\"type\":\"LIFETIME\"}"), Set.of("fairScheduler")),
        StandardCharsets.UTF_8)).endsWith("<timeout><type>LIFETIME</type></timeout>");
  }

  @Test
  void readsRepeatedElementsAsArraysAndLeavesAsText() {
    XmlBodies.Document doc = XmlBodies.read("""
        <?xml version="1.0"?><application-submission-context><queue>q</queue><empty/>
        <env><entry><key>A</key><value>1</value></entry><entry><key>B</key><value>2</value></entry></env>
        <commands><command>one</command></commands></application-submission-context>""");
    assertThat(doc.root()).isEqualTo("application-submission-context");
    JsonNode c = doc.content();
    assertThat(c.path("queue").asText()).isEqualTo("q");
    assertThat(c.path("empty").asText()).isEmpty();
    assertThat(c.path("env").path("entry")).hasSize(2);
    assertThat(c.path("env").path("entry").get(1).path("value").asText()).isEqualTo("2");
    assertThat(c.path("commands").path("command").asText()).isEqualTo("one");
  }

  @Test
  void refusesDtdsEntitiesAndWhatItWouldNotRead() {
    assertThatThrownBy(() -> XmlBodies.read("""
        <?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"""))
        .isInstanceOf(XmlBodies.MalformedXml.class);
    assertThatThrownBy(() -> XmlBodies.read("<x a=\"1\"><y/></x>")).hasMessageContaining("attribute a");
    assertThatThrownBy(() -> XmlBodies.read("<x>text<y/></x>")).hasMessageContaining("both text and elements");
    assertThatThrownBy(() -> XmlBodies.read("<x><y>")).isInstanceOf(XmlBodies.MalformedXml.class);
    assertThatThrownBy(() -> XmlBodies.read("<a>".repeat(40) + "</a>".repeat(40))).hasMessageContaining("nest deeper");
  }
}
