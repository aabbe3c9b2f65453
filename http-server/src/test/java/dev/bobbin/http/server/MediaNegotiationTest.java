package dev.bobbin.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.junit.jupiter.api.Test;

class MediaNegotiationTest {
  private static HttpRequest accepting(String accept) {
    return HttpRequest.create("/ws/v1/cluster/info").addHeader(HttpHeader.parse("Accept", accept));
  }

  @Test
  void xmlOnlyWhenTheCallerRatesItAboveJson() {
    assertThat(MediaNegotiation.prefersXml(HttpRequest.create("/"))).isFalse();
    assertThat(MediaNegotiation.prefersXml(accepting("application/xml"))).isTrue();
    assertThat(MediaNegotiation.prefersXml(accepting("text/xml"))).isTrue();
    assertThat(MediaNegotiation.prefersXml(accepting("*/*"))).isFalse();
    assertThat(MediaNegotiation.prefersXml(accepting("application/json, application/xml"))).isFalse();
    assertThat(MediaNegotiation.prefersXml(accepting("application/json;q=0.5, application/xml"))).isTrue();
    // A browser's: XML named, JSON only through */*.
    assertThat(MediaNegotiation.prefersXml(accepting(
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"))).isTrue();
  }

  @Test
  void aJsonBodyIsTurnedIntoXmlWholeAndAnythingElseLeftAlone() {
    HttpResponse json = HttpResponse.create().withEntity(ContentTypes.APPLICATION_JSON, "{\"state\":\"KILLED\"}");
    HttpResponse xml = MediaNegotiation.negotiated(accepting("application/xml"), json, "appstate");
    assertThat(xml.entity().getContentType().mediaType().toString()).isEqualTo("application/xml");
    assertThat(body(xml)).endsWith("<appstate><state>KILLED</state></appstate>");
    assertThat(MediaNegotiation.negotiated(accepting("application/json"), json, "appstate")).isSameAs(json);
    HttpResponse unnamable = HttpResponse.create().withEntity(ContentTypes.APPLICATION_JSON, "{\"env\":{\"A B\":\"1\"}}");
    assertThat(MediaNegotiation.negotiated(accepting("application/xml"), unnamable, null)).isSameAs(unnamable);
    HttpResponse text = HttpResponse.create().withEntity(ContentTypes.TEXT_PLAIN_UTF8, "metrics 1");
    assertThat(MediaNegotiation.negotiated(accepting("application/xml"), text, null)).isSameAs(text);
  }

  private static String body(HttpResponse r) {
    return ((org.apache.pekko.http.javadsl.model.HttpEntity.Strict) r.entity()).getData()
        .decodeString(StandardCharsets.UTF_8);
  }
}
