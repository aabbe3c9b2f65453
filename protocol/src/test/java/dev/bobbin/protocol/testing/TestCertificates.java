package dev.bobbin.protocol.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority and a certificate for 127.0.0.1 and localhost signed by it, made with the
 * JDK's {@code keytool} in a directory of the test's: nothing comes from outside the test.
 *
 * @param serverP12 the server's key, its certificate and the CA's, as PKCS#12
 * @param serverChainPem the same certificates as PEM, leaf first
 * @param serverKeyPem the server's private key as unencrypted PKCS#8 PEM
 * @param caPem the CA's certificate as PEM: what clients trust
 * @param caP12 the CA's certificate alone, as a PKCS#12 trust store
 */
public record TestCertificates(
    Path serverP12, Path serverChainPem, Path serverKeyPem, Path caPem, Path caP12, String password) {

  public static final String PASSWORD = "test-pass";

  /** A CA, and a server certificate it signed, under {@code dir}. */
  public static TestCertificates create(Path dir) {
    return create(dir, "ca", "server");
  }

  /**
   * @param caName distinct names give distinct, unrelated authorities (a client trusting one
   *     refuses a server of the other)
   */
  public static TestCertificates create(Path dir, String caName, String serverName) {
    try {
      Files.createDirectories(dir);
      Path ca = dir.resolve(caName + "-keys.p12");
      Path caPem = dir.resolve(caName + ".pem");
      Path caTrust = dir.resolve(caName + "-trust.p12");
      Path server = dir.resolve(serverName + ".p12");
      Path csr = dir.resolve(serverName + ".csr");
      Path signed = dir.resolve(serverName + ".crt");
      keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
          "-dname", "CN=Bobbin test CA " + caName, "-ext", "bc:c", "-keystore", ca.toString());
      keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-file", caPem.toString());
      keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", caTrust.toString());
      keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
          "-dname", "CN=127.0.0.1", "-keystore", server.toString());
      keytool("-certreq", "-alias", "server", "-keystore", server.toString(), "-file", csr.toString());
      keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-infile", csr.toString(),
          "-outfile", signed.toString(), "-validity", "2", "-ext", "san=ip:127.0.0.1,dns:localhost");
      keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", server.toString());
      keytool("-importcert", "-alias", "server", "-file", signed.toString(), "-keystore", server.toString());
      Path chainPem = dir.resolve(serverName + "-chain.pem");
      Path keyPem = dir.resolve(serverName + "-key.pem");
      writePem(server, chainPem, keyPem);
      return new TestCertificates(server, chainPem, keyPem, caPem, caTrust, PASSWORD);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("test certificates under " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void writePem(Path p12, Path chainPem, Path keyPem) throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(p12)) {
      ks.load(in, PASSWORD.toCharArray());
    }
    Key key = ks.getKey("server", PASSWORD.toCharArray());
    Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
    List<String> blocks = new ArrayList<>();
    for (Certificate c : ks.getCertificateChain("server")) blocks.add(pem("CERTIFICATE", c.getEncoded()));
    Files.writeString(chainPem, String.join("", blocks));
  }

  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static void keytool(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
